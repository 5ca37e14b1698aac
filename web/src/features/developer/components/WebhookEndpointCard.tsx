import { MARKET_LABELS, formatDateTime, formatNumber, type WebhookEndpoint } from '@afrofx/shared';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { Notice } from '../../../components/Notice';
import { Pill } from '../../../components/Pill';
import { pairLabel } from '../webhook-form';

interface WebhookEndpointCardProps {
  endpoint: WebhookEndpoint;
  logShown: boolean;
  isSendingTest: boolean;
  isResuming: boolean;
  onSendTest: () => void;
  onResume: () => void;
  onToggleLog: () => void;
  onRotate: () => void;
  onDelete: () => void;
}

function Detail({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{term}</dt>
      <dd className="mt-1 text-sm text-slate-800">{children}</dd>
    </div>
  );
}

export function WebhookEndpointCard({
  endpoint,
  logShown,
  isSendingTest,
  isResuming,
  onSendTest,
  onResume,
  onToggleLog,
  onRotate,
  onDelete,
}: WebhookEndpointCardProps) {
  const watchesUpdates = endpoint.events.includes('rate.updated');
  return (
    <Card className="p-5 sm:p-6" data-testid="webhook-endpoint">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <p className="font-mono text-sm font-semibold break-all text-slate-900">{endpoint.url}</p>
          <p className="mt-1 text-xs text-slate-500">
            Added <span className="tabular-nums">{formatDateTime(endpoint.createdAt)}</span>
          </p>
        </div>
        <div className="flex flex-wrap gap-1.5">
          {endpoint.state === 'parked' && <Pill tone="red">Paused</Pill>}
          {endpoint.events.map((event) => (
            <Pill key={event} tone="blue">
              {event}
            </Pill>
          ))}
        </div>
      </div>

      {endpoint.state === 'parked' && (
        <Notice
          tone="warning"
          role="status"
          className="mt-4"
          title="Deliveries to this endpoint are paused"
          action={
            <Button size="sm" onClick={onResume} isLoading={isResuming}>
              Resume deliveries
            </Button>
          }
        >
          <p>
            {endpoint.parkedReason}
            {endpoint.parkedAt && (
              <>
                {' '}
                (since <span className="tabular-nums">{formatDateTime(endpoint.parkedAt)}</span>)
              </>
            )}
            . New deliveries are kept and go out, oldest first, once you resume
            {endpoint.retryAt && (
              <>
                {' '}
                or when a trial delivery at{' '}
                <span className="tabular-nums">{formatDateTime(endpoint.retryAt)}</span> succeeds
              </>
            )}
            .
          </p>
        </Notice>
      )}

      <dl className="mt-5 grid grid-cols-1 gap-4 sm:grid-cols-3">
        {watchesUpdates && (
          <Detail term="Markets">
            {endpoint.markets.length
              ? endpoint.markets.map((m) => MARKET_LABELS[m]).join(', ')
              : 'All markets'}
          </Detail>
        )}
        {watchesUpdates && (
          <Detail term="Pairs">
            {endpoint.pairs.length ? endpoint.pairs.map(pairLabel).join(', ') : 'All pairs'}
          </Detail>
        )}
        <Detail term="Signing secret">
          <code className="font-mono text-xs break-all">{endpoint.secretHint}</code>
        </Detail>
      </dl>

      {endpoint.thresholds.length > 0 && (
        <div className="mt-5">
          <p className="text-xs font-medium tracking-wide text-slate-500 uppercase">Thresholds</p>
          <ul className="mt-2 divide-y divide-slate-100 rounded-lg ring-1 ring-slate-200">
            {endpoint.thresholds.map((t) => (
              <li key={t._id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2 text-sm">
                <span>
                  {pairLabel(t)} · {MARKET_LABELS[t.market]} · {t.side}{' '}
                  <span className="font-semibold tabular-nums">{formatNumber(t.level)}</span>
                </span>
                <span className="text-xs text-slate-500">
                  {t.lastPosition ? `Price now ${t.lastPosition} the level` : 'No rate yet'}
                </span>
              </li>
            ))}
          </ul>
        </div>
      )}

      <div className="mt-5 flex flex-wrap gap-2 border-t border-slate-100 pt-4">
        <Button size="sm" onClick={onSendTest} isLoading={isSendingTest}>
          Send test event
        </Button>
        <Button size="sm" variant="secondary" aria-pressed={logShown} onClick={onToggleLog}>
          {logShown ? 'Hide delivery log' : 'Delivery log'}
        </Button>
        <Button size="sm" variant="secondary" onClick={onRotate}>
          Rotate secret
        </Button>
        <Button size="sm" variant="ghost-danger" onClick={onDelete} className="sm:ml-auto">
          Delete
        </Button>
      </div>
    </Card>
  );
}

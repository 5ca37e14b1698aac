import { formatDateTime, type Status } from '@afrofx/shared';
import { errorMessage } from '../../../api/error-message';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { ErrorState } from '../../../components/ErrorState';
import { Pill } from '../../../components/Pill';
import { Spinner } from '../../../components/Spinner';
import { usePageClock } from '../../../lib/page-clock';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useFetchStatusQuery } from '../public-api';

const REFRESH_MS = 60_000;

const SERVICES: ReadonlyArray<{ key: keyof Status['services']; label: string; what: string }> = [
  { key: 'api', label: 'API', what: 'Answers requests and records them' },
  { key: 'database', label: 'Database', what: 'Stores rates, accounts and plans' },
  { key: 'queue', label: 'Job queue', what: 'Runs mailings, exports and tweets' },
  { key: 'mail', label: 'Mail', what: 'Sends confirmations and the daily rates' },
];

/** "just now", "12 min ago", "5 h ago", "3 days ago". */
export function formatAge(seconds: number): string {
  if (seconds < 60) return 'just now';
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 172_800) return `${Math.floor(seconds / 3600)} h ago`;
  return `${Math.floor(seconds / 86_400)} days ago`;
}

function StatusReport({ status }: { status: Status }) {
  // The server's zone while hydrating a server-rendered page, the viewer's after.
  const { timeZone } = usePageClock();
  const healthy = status.status === 'ok';
  return (
    <div className="space-y-6">
      <Card
        className={`flex items-center gap-3 p-5 ${healthy ? 'bg-brand-50 ring-brand-600/20' : 'bg-gold-50 ring-gold-600/25'}`}
      >
        <span
          aria-hidden="true"
          className={`size-3 shrink-0 rounded-full ${healthy ? 'bg-brand-500' : 'bg-gold-500'}`}
        />
        <div>
          <p className="font-semibold text-slate-900">
            {healthy ? 'All systems operational' : 'Some systems are having trouble'}
          </p>
          <p className="text-sm text-slate-600">Checked {formatDateTime(status.checkedAt, timeZone)}</p>
        </div>
      </Card>

      <Card>
        <h2 className="border-b border-slate-200 px-5 py-4 font-semibold text-slate-900">Services</h2>
        <ul className="divide-y divide-slate-100">
          {SERVICES.map(({ key, label, what }) => {
            const check = status.services[key];
            return (
              <li key={key} className="flex items-start justify-between gap-4 px-5 py-4">
                <div className="min-w-0">
                  <p className="font-medium text-slate-900">{label}</p>
                  <p className="text-sm text-slate-500">{what}</p>
                  {check.detail && <p className="mt-1 text-sm break-words text-red-700">{check.detail}</p>}
                </div>
                <Pill tone={check.ok ? 'green' : 'red'}>{check.ok ? 'Operational' : 'Failing'}</Pill>
              </li>
            );
          })}
        </ul>
      </Card>

      <Card>
        <h2 className="border-b border-slate-200 px-5 py-4 font-semibold text-slate-900">Rates</h2>
        <ul className="divide-y divide-slate-100">
          {status.markets.map((market) => (
            <li key={market.market} className="flex items-start justify-between gap-4 px-5 py-4">
              <div className="min-w-0">
                <p className="font-medium text-slate-900">{market.label} market</p>
                <p className="text-sm text-slate-500 tabular-nums">
                  {market.updatedAt && market.ageSeconds !== null
                    ? `Last update ${formatDateTime(market.updatedAt, timeZone)} (${formatAge(market.ageSeconds)})`
                    : 'No rates yet'}
                </p>
              </div>
              <Pill tone={market.stale ? 'gold' : 'green'}>{market.stale ? 'Stale' : 'Fresh'}</Pill>
            </li>
          ))}
        </ul>
      </Card>
    </div>
  );
}

/** The public status page, from GET /v1/status, refreshed every minute. */
export function StatusPage() {
  useDocumentTitle('Service status');
  const { data, error, isLoading, isFetching, refetch } = useFetchStatusQuery(undefined, {
    pollingInterval: REFRESH_MS,
  });

  return (
    <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
      <div className="mb-8 flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold tracking-tight text-slate-900">Service status</h1>
          <p className="mt-2 text-slate-600">
            How fresh each market’s rates are, and whether AfroFX is healthy.
          </p>
        </div>
        <Button variant="secondary" size="sm" onClick={() => void refetch()} disabled={isFetching}>
          {isFetching && !isLoading ? 'Checking…' : 'Check again'}
        </Button>
      </div>
      {isLoading ? (
        <div className="flex justify-center py-16">
          <Spinner label="Loading the status" className="text-brand-600 [&_svg]:size-8" />
        </div>
      ) : error && !data ? (
        <Card>
          <ErrorState message={errorMessage(error)} onRetry={() => void refetch()} />
        </Card>
      ) : data ? (
        <StatusReport status={data} />
      ) : null}
    </div>
  );
}

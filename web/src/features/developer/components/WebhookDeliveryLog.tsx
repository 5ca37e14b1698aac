import { formatDateTime, formatNumber, type WebhookDelivery } from '@afrofx/shared';
import { Pill, type PillTone } from '../../../components/Pill';
import type { Column } from '../../../components/Table';
import {
  useFetchWebhookDeliveriesInfiniteQuery,
  useWebhookDeliveriesState,
  type WebhookRef,
} from '../developer-api';
import { PagedTable, pagedRows } from '../../../components/PagedTable';

const STATE_LOOK: Record<WebhookDelivery['state'], { tone: PillTone; label: string }> = {
  pending: { tone: 'gold', label: 'Retrying' },
  sending: { tone: 'blue', label: 'Sending' },
  succeeded: { tone: 'green', label: 'Delivered' },
  failed: { tone: 'red', label: 'Failed' },
};

// The open log shows new deliveries as rates are entered, and follows one on its way more closely.
const POLL_MS = 10_000;
const POLL_UNDERWAY_MS = 2000;

// A pending delivery of a paused endpoint is not being retried: it is kept until the endpoint is resumed.
const KEPT_LOOK = { tone: 'slate', label: 'Kept (paused)' } as const;

const isUnderway = (d: WebhookDelivery) => d.state === 'pending' || d.state === 'sending';

const columnsFor = (parked: boolean): ReadonlyArray<Column<WebhookDelivery>> => [
  {
    key: 'createdAt',
    header: 'Created',
    className: 'hidden sm:table-cell',
    cell: (d) => <span className="whitespace-nowrap tabular-nums">{formatDateTime(d.createdAt)}</span>,
  },
  {
    key: 'event',
    header: 'Event',
    cell: (d) => (
      <div>
        <code className="font-mono text-xs">{d.event}</code>
        {/* Small screens have no Created column. */}
        <p className="mt-1 text-xs text-slate-500 tabular-nums sm:hidden">{formatDateTime(d.createdAt)}</p>
      </div>
    ),
  },
  {
    key: 'state',
    header: 'Status',
    cell: (d) => {
      const look = parked && d.state === 'pending' ? KEPT_LOOK : STATE_LOOK[d.state];
      return (
        <div>
          <Pill tone={look.tone}>{look.label}</Pill>
          {d.error && d.state !== 'succeeded' && (
            <p className="mt-1 max-w-56 text-xs text-slate-500">{d.error}</p>
          )}
        </div>
      );
    },
  },
  {
    key: 'attempts',
    header: 'Attempts',
    align: 'right',
    cell: (d) => (
      <span
        className="tabular-nums"
        title={d.attemptLog
          .map((a) => `#${a.attempt}: ${a.responseCode ?? a.error ?? 'no answer'}`)
          .join('\n')}
      >
        {d.attempts}
      </span>
    ),
  },
  {
    key: 'responses',
    header: 'Response codes',
    className: 'hidden sm:table-cell',
    cell: (d) =>
      d.attemptLog.length === 0 ? (
        <span className="text-slate-400">—</span>
      ) : (
        <span className="font-mono text-xs whitespace-nowrap">
          {d.attemptLog.map((a) => a.responseCode ?? 'none').join(' → ')}
        </span>
      ),
  },
  {
    key: 'latency',
    header: 'Latency',
    align: 'right',
    className: 'hidden sm:table-cell',
    cell: (d) =>
      d.latencyMs === null ? (
        <span className="text-slate-400">—</span>
      ) : (
        <span className="whitespace-nowrap tabular-nums">{formatNumber(d.latencyMs, 0)} ms</span>
      ),
  },
];

const activeColumns = columnsFor(false);
const parkedColumns = columnsFor(true);

/** One endpoint's deliveries, newest first, with every attempt's response code. */
export function WebhookDeliveryLog({ endpoint, parked = false }: { endpoint: WebhookRef; parked?: boolean }) {
  const cached = useWebhookDeliveriesState(endpoint);
  const underway = cached.data?.pages.some((page) => page.data.some(isUnderway)) ?? false;
  const deliveries = useFetchWebhookDeliveriesInfiniteQuery(endpoint, {
    pollingInterval: underway ? POLL_UNDERWAY_MS : POLL_MS,
  });
  return (
    <PagedTable
      caption="Delivery log"
      columns={parked ? parkedColumns : activeColumns}
      rowKey={(d) => d._id}
      {...pagedRows(deliveries)}
      emptyMessage="No deliveries yet."
      emptyDescription="Send a test event, or wait for the next rate that matches this endpoint."
      loadingLabel="Loading the delivery log"
    />
  );
}

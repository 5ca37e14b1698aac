import { formatDateTime, formatNumber, type Subscription } from '@afrofx/shared';
import { Card } from '../../../components/Card';
import { PageHeader } from '../../../components/PageHeader';
import { SubscriptionStatusPill } from '../../../components/SubscriptionStatusPill';
import { PagedTable, pagedState } from '../../../components/PagedTable';
import type { Column } from '../../../components/Table';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useFetchAllSubscriptionsInfiniteQuery } from '../admin-api';

// Stamps wrap (date over time), so eight columns fit beside the sidebar at 1280 px instead of being cut off.
const dateCell = (value: string | null) =>
  value ? (
    <span className="block min-w-24 whitespace-normal text-slate-500 tabular-nums">
      {formatDateTime(value)}
    </span>
  ) : (
    '—'
  );

// SPEC §2: plan name, app name, status, processed request, limit request, created at, last increment, expires at.
const columns: ReadonlyArray<Column<Subscription>> = [
  {
    key: 'plan',
    header: 'Plan',
    cardTitle: true,
    cell: (subscription) =>
      subscription.plan._id ? (
        <span className="font-semibold text-slate-900">{subscription.plan.name}</span>
      ) : (
        <span className="text-slate-900">
          {subscription.plan.name} <span className="text-xs text-slate-400 italic">(Plan was removed)</span>
        </span>
      ),
  },
  {
    key: 'app',
    header: 'App',
    cell: (subscription) =>
      subscription.app.name || <span className="text-slate-400 italic">No app name</span>,
  },
  {
    key: 'status',
    header: 'Status',
    cell: (subscription) => <SubscriptionStatusPill status={subscription.status} />,
  },
  {
    key: 'processed',
    header: 'Processed',
    align: 'right',
    cell: (subscription) => (
      <span className="tabular-nums">{formatNumber(subscription.processedRequest, 0)}</span>
    ),
  },
  {
    key: 'limit',
    header: 'Limit',
    align: 'right',
    cell: (subscription) => <span className="tabular-nums">{formatNumber(subscription.limit, 0)}</span>,
  },
  { key: 'created', header: 'Created', cell: (subscription) => dateCell(subscription.createdAt) },
  {
    key: 'last-increment',
    header: 'Last increment',
    cell: (subscription) => dateCell(subscription.lastIncrement),
  },
  { key: 'expires', header: 'Expires', cell: (subscription) => dateCell(subscription.expireAt) },
];

export function SubscriptionsPage() {
  useDocumentTitle('Subscriptions');
  const list = pagedState(useFetchAllSubscriptionsInfiniteQuery());
  const { total } = list;

  return (
    <>
      <PageHeader
        title="Subscriptions"
        description={
          total === undefined
            ? 'Every plan sold to an app, newest first.'
            : `${formatNumber(total, 0)} ${total === 1 ? 'subscription' : 'subscriptions'}, newest first.`
        }
      />
      <Card className="overflow-hidden">
        <PagedTable
          {...list}
          caption="Subscriptions"
          columns={columns}
          rowKey={(subscription) => subscription._id}
          loadingLabel="Loading subscriptions"
          emptyMessage="Subscriptions is empty."
          emptyDescription="Subscriptions appear here as soon as developers buy a plan."
        />
      </Card>
    </>
  );
}

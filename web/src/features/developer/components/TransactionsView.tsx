import { formatDateTime, formatNumber, type Transaction } from '@afrofx/shared';
import { Pill } from '../../../components/Pill';
import type { Column } from '../../../components/Table';
import { PagedTable, type PagedState } from './PagedTable';

const currencySign: Record<Transaction['currency'], string> = { USD: '$', NGN: '₦' };

const columns: ReadonlyArray<Column<Transaction>> = [
  {
    key: 'reference',
    header: 'Reference',
    cell: (transaction) => (
      <span className="font-mono text-[13px] text-slate-900">{transaction.transactionRefrence}</span>
    ),
  },
  {
    key: 'plan',
    header: 'Plan',
    cell: (transaction) =>
      transaction.plan ? (
        <span className="font-medium text-slate-900">{transaction.plan.name}</span>
      ) : (
        <span className="text-slate-400 italic">Plan was removed</span>
      ),
  },
  {
    key: 'amount',
    header: 'Amount',
    align: 'right',
    cell: (transaction) => (
      <span className="font-medium text-slate-900 tabular-nums">
        {currencySign[transaction.currency]}
        {formatNumber(transaction.amount)}{' '}
        <span className="text-xs font-normal text-slate-500">{transaction.currency}</span>
      </span>
    ),
  },
  {
    key: 'status',
    header: 'Status',
    cell: (transaction) => (
      <span className="inline-flex flex-wrap gap-1.5">
        <Pill tone={transaction.confirmedStatus ? 'green' : 'gold'}>
          {transaction.confirmedStatus ? 'Confirmed' : 'Unconfirmed'}
        </Pill>
        {transaction.isUpcoming && <Pill tone="blue">Upcoming plan</Pill>}
      </span>
    ),
  },
  {
    key: 'provider-status',
    header: 'Payment',
    className: 'max-md:hidden',
    cell: (transaction) => <span className="text-slate-600 capitalize">{transaction.transactionStatus}</span>,
  },
  {
    key: 'created',
    header: 'Date',
    cell: (transaction) => (
      <span className="text-slate-500 tabular-nums">{formatDateTime(transaction.createdAt)}</span>
    ),
  },
];

/** The app's plan payments, newest first, loading more at the bottom of the window. */
export function TransactionsView(state: PagedState<Transaction>) {
  return (
    <PagedTable
      caption="Transactions"
      columns={columns}
      rowKey={(transaction) => transaction._id}
      emptyMessage="Transaction is empty."
      emptyDescription="Plan payments for this app appear here."
      loadingLabel="Loading transactions"
      {...state}
    />
  );
}

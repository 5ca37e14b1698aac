import { formatDateTime, type Transaction } from '@afrofx/shared';
import { Pill } from '../../../components/Pill';
import type { Column } from '../../../components/Table';
import { TransactionAmount, TransactionPlan, TransactionStatus } from '../../../components/TransactionCells';
import { PagedTable, type PagedState } from '../../../components/PagedTable';

const columns: ReadonlyArray<Column<Transaction>> = [
  {
    key: 'reference',
    header: 'Reference',
    cardTitle: true,
    cell: (transaction) => (
      <span className="font-mono text-[13px] text-slate-900">{transaction.transactionRefrence}</span>
    ),
  },
  {
    key: 'plan',
    header: 'Plan',
    cell: (transaction) => <TransactionPlan plan={transaction.plan} />,
  },
  {
    key: 'amount',
    header: 'Amount',
    align: 'right',
    cell: (transaction) => <TransactionAmount transaction={transaction} />,
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
    className: 'sm:max-md:hidden',
    cell: (transaction) => <TransactionStatus status={transaction.transactionStatus} />,
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

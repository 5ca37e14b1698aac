import { formatDateTime, formatNumber, type Transaction } from '@afrofx/shared';
import { Card } from '../../../components/Card';
import { Notice } from '../../../components/Notice';
import { PageHeader } from '../../../components/PageHeader';
import { PagedTable, pagedState } from '../../../components/PagedTable';
import type { Column } from '../../../components/Table';
import { TransactionAmount, TransactionPlan, TransactionStatus } from '../../../components/TransactionCells';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useFetchAllTransactionsInfiniteQuery, useFetchHeldPaymentsQuery } from '../admin-api';

// SPEC §2: currency, app name, amount, reference, status, user, email, created at (and the plan bought).
const columns: ReadonlyArray<Column<Transaction>> = [
  { key: 'currency', header: 'Currency', cell: (transaction) => transaction.currency },
  {
    key: 'app',
    header: 'App',
    cell: (transaction) =>
      transaction.app.name ? (
        <span className="font-medium text-slate-900">{transaction.app.name}</span>
      ) : (
        <span className="text-slate-400 italic">No app name</span>
      ),
  },
  { key: 'plan', header: 'Plan', cell: (transaction) => <TransactionPlan plan={transaction.plan} /> },
  {
    key: 'amount',
    header: 'Amount',
    align: 'right',
    cell: (transaction) => <TransactionAmount transaction={transaction} showCode={false} />,
  },
  {
    key: 'reference',
    header: 'Reference',
    cardTitle: true,
    cell: (transaction) => (
      <span className="block max-w-44 font-mono text-[13px] break-all whitespace-normal text-slate-900">
        {transaction.transactionRefrence}
      </span>
    ),
  },
  {
    key: 'status',
    header: 'Status',
    cell: (transaction) => <TransactionStatus status={transaction.transactionStatus} />,
  },
  // The payer's name over their address, and stamps that wrap: nine facts fit beside the sidebar at 1280 px.
  {
    key: 'user',
    header: 'User',
    cell: (transaction) => (
      <span className="block max-w-52 break-words whitespace-normal">
        {`${transaction.user.first_name} ${transaction.user.last_name}`.trim()}
        <span className="block text-xs text-slate-500">{transaction.user.email}</span>
      </span>
    ),
  },
  {
    key: 'created',
    header: 'Created',
    cell: (transaction) => (
      <span className="block min-w-24 whitespace-normal text-slate-500 tabular-nums">
        {formatDateTime(transaction.createdAt)}
      </span>
    ),
  },
];

/**
 * Payments taken but not granted (they would have stacked a second upcoming plan, or were made on a transaction the
 * order did not start): each is refunded, or granted, by hand at the provider.
 */
function HeldPayments() {
  const held = useFetchHeldPaymentsQuery().data;
  if (!held?.length) return null;
  return (
    <Notice
      tone="warning"
      className="mb-6"
      title={`${held.length} held ${held.length === 1 ? 'payment' : 'payments'} to refund`}
    >
      <ul className="mt-1 space-y-1">
        {held.map((payment) => (
          <li key={payment.reference}>
            <span className="font-mono text-[13px]">{payment.reference}</span>: {payment.currency}{' '}
            {formatNumber(payment.amount)} for {payment.planName}
            {payment.paidAt ? `, paid ${formatDateTime(payment.paidAt)}` : ''}. {payment.reason}
          </li>
        ))}
      </ul>
    </Notice>
  );
}

export function TransactionsPage() {
  useDocumentTitle('Transactions');
  const list = pagedState(useFetchAllTransactionsInfiniteQuery());
  const { total } = list;

  return (
    <>
      <PageHeader
        title="Transactions"
        description={
          total === undefined
            ? 'Every plan payment, newest first.'
            : `${formatNumber(total, 0)} plan ${total === 1 ? 'payment' : 'payments'}, newest first.`
        }
      />
      <HeldPayments />
      <Card className="overflow-hidden">
        <PagedTable
          {...list}
          caption="Transactions"
          columns={columns}
          rowKey={(transaction) => transaction._id}
          loadingLabel="Loading transactions"
          emptyMessage="Transaction is empty."
          emptyDescription="Payments appear here as soon as developers buy a plan."
        />
      </Card>
    </>
  );
}

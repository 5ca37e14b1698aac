import { formatAmount, formatDateTime, type Receipt } from '@afrofx/shared';
import { Link } from 'react-router';
import { Card } from '../../../components/Card';
import { PageHeader } from '../../../components/PageHeader';
import { paths } from '../../../lib/paths';
import type { Column } from '../../../components/Table';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { PagedTable, pagedRows } from '../../../components/PagedTable';
import { useFetchReceiptsInfiniteQuery } from '../developer-api';

const columns: ReadonlyArray<Column<Receipt>> = [
  {
    key: 'reference',
    header: 'Receipt',
    cardTitle: true,
    cell: (receipt) => (
      <Link
        to={`${paths.developer.receipts}/${receipt.reference}`}
        className="font-mono text-[13px] font-medium text-brand-700 underline underline-offset-2 hover:text-brand-900"
      >
        {receipt.reference}
      </Link>
    ),
  },
  { key: 'app', header: 'App', cell: (receipt) => receipt.app.name },
  { key: 'plan', header: 'Plan', cell: (receipt) => receipt.plan.name },
  {
    key: 'amount',
    header: 'Amount',
    align: 'right',
    cell: (receipt) => (
      <span className="font-medium text-slate-900 tabular-nums">
        {formatAmount(receipt.amount, receipt.currency)}
      </span>
    ),
  },
  {
    key: 'paid',
    header: 'Paid on',
    cell: (receipt) => <span className="text-slate-500 tabular-nums">{formatDateTime(receipt.paidAt)}</span>,
  },
];

/** Every payment of the account, newest first, each with a printable receipt. */
export function ReceiptsPage() {
  useDocumentTitle('Receipts');
  const receipts = pagedRows(useFetchReceiptsInfiniteQuery());
  return (
    <>
      <PageHeader
        title="Receipts"
        description="A receipt for every plan payment of your account, across all apps."
      />
      <Card className="overflow-hidden">
        <PagedTable
          caption="Receipts"
          columns={columns}
          rowKey={(receipt) => receipt.reference}
          emptyMessage="No receipts yet."
          emptyDescription="When you buy a plan for an app, its receipt appears here and is e-mailed to you."
          loadingLabel="Loading receipts"
          {...receipts}
        />
      </Card>
    </>
  );
}

import {
  formatAmount,
  formatDateTime,
  formatDay,
  formatNumber,
  receiptRateLine,
  type Receipt,
} from '@afrofx/shared';
import { Link, useParams } from 'react-router';
import { Button, buttonClasses } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { DataView } from '../../../components/DataView';
import { Logo } from '../../../components/Logo';
import { paths } from '../../../lib/paths';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useFetchReceiptQuery } from '../developer-api';

/** The term as the receipt mail gives it: UTC days, the clock the term is counted by. */
function periodOf(receipt: Receipt): string {
  if (!receipt.period) return 'Not recorded';
  const period = `${formatDay(receipt.period.start, 'UTC')} to ${formatDay(receipt.period.end, 'UTC')} (UTC)`;
  return receipt.isUpcoming ? `${period}, after the current plan` : period;
}

/** One receipt, laid out to print on its own (the console around it is not printed). */
export function ReceiptPage() {
  const { reference = '' } = useParams();
  useDocumentTitle('Receipt');
  const receipt = useFetchReceiptQuery(reference);
  const status = receipt.error && 'status' in receipt.error ? receipt.error.status : null;
  return (
    <>
      <div className="mb-6 flex flex-wrap items-center justify-between gap-3 print:hidden">
        <Link to={paths.developer.receipts} className={buttonClasses('ghost', 'sm')}>
          ← All receipts
        </Link>
        {receipt.data && <Button onClick={() => window.print()}>Print</Button>}
      </div>
      <Card className="mx-auto max-w-2xl p-6 sm:p-10 print:max-w-none print:p-0 print:shadow-none print:ring-0">
        <DataView
          isLoading={receipt.isLoading}
          isError={receipt.isError && status !== 404 && status !== 400}
          isEmpty={!receipt.data}
          emptyMessage="No receipt with this reference."
          emptyDescription="It may belong to another account. Your receipts are listed under Receipts."
          loadingLabel="Loading the receipt"
          onRetry={() => void receipt.refetch()}
        >
          {receipt.data && <ReceiptDocument receipt={receipt.data} />}
        </DataView>
      </Card>
    </>
  );
}

function ReceiptDocument({ receipt }: { receipt: Receipt }) {
  const facts: Array<[string, string]> = [
    ['Reference', receipt.reference],
    ['Paid on', formatDateTime(receipt.paidAt, 'UTC')],
    ['App', receipt.app.name],
    ['Plan', `${receipt.plan.name}, ${formatNumber(receipt.plan.requestLimit, 0)} requests a month`],
    ['Period', periodOf(receipt)],
    ['Billed to', `${receipt.billedTo.name} <${receipt.billedTo.email}>`],
    ...(receipt.exchangeRate
      ? [['Exchange rate', receiptRateLine(receipt.exchangeRate)] as [string, string]]
      : []),
  ];
  return (
    <article aria-labelledby="receipt-title" className="text-sm text-slate-700">
      <header className="flex flex-wrap items-start justify-between gap-4 border-b border-slate-200 pb-6">
        <div>
          <Logo />
          <p className="mt-2 text-slate-500">{receipt.seller.address}</p>
        </div>
        <div className="text-right">
          <h1 id="receipt-title" className="text-2xl font-bold text-slate-900">
            Receipt
          </h1>
          <p className="mt-1 text-slate-500">Paid</p>
        </div>
      </header>
      <dl className="grid gap-x-6 gap-y-3 py-6 sm:grid-cols-[auto_1fr]">
        {facts.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="font-medium text-slate-500">{label}</dt>
            <dd className="break-words text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
      <table className="w-full border-t border-slate-200">
        <caption className="sr-only">What was paid</caption>
        <thead>
          <tr>
            <th scope="col" className="py-3 text-left font-medium text-slate-500">
              Description
            </th>
            <th scope="col" className="py-3 text-right font-medium text-slate-500">
              Amount
            </th>
          </tr>
        </thead>
        <tbody>
          {receipt.lines.map((line) => (
            <tr key={line.label} className="border-t border-slate-100">
              <td className="py-3">{line.label}</td>
              <td className="py-3 text-right tabular-nums">{formatAmount(line.amount, receipt.currency)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr className="border-t-2 border-slate-300">
            <th scope="row" className="py-3 text-left font-semibold text-slate-900">
              Total paid
            </th>
            <td className="py-3 text-right font-bold text-slate-900 tabular-nums">
              {formatAmount(receipt.amount, receipt.currency)}
            </td>
          </tr>
        </tfoot>
      </table>
      <p className="mt-6 text-xs text-slate-500">
        {receipt.mailedAt
          ? `A copy was e-mailed to ${receipt.billedTo.email} on ${formatDateTime(receipt.mailedAt)}.`
          : `A copy is being e-mailed to ${receipt.billedTo.email}.`}
      </p>
    </article>
  );
}

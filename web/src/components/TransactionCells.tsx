import { formatNumber, type Transaction } from '@afrofx/shared';
import { Pill, type PillTone } from './Pill';

const currencySign: Record<Transaction['currency'], string> = { USD: '$', NGN: '₦' };

interface TransactionAmountProps {
  transaction: Pick<Transaction, 'amount' | 'currency'>;
  /** The currency code after the amount; off where a column of its own shows it. */
  showCode?: boolean;
}

/** The amount paid, with its currency's sign (and code). */
export function TransactionAmount({ transaction, showCode = true }: TransactionAmountProps) {
  return (
    <span className="font-medium text-slate-900 tabular-nums">
      {currencySign[transaction.currency]}
      {formatNumber(transaction.amount)}
      {showCode && <span className="text-xs font-normal text-slate-500"> {transaction.currency}</span>}
    </span>
  );
}

/** SPEC §3: a transaction's plan may have been removed since; SPEC §8 says so. */
export function TransactionPlan({ plan }: { plan: Transaction['plan'] }) {
  return plan ? (
    <span className="font-medium text-slate-900">{plan.name}</span>
  ) : (
    <span className="text-slate-400 italic">Plan was removed</span>
  );
}

const statusTones: Record<string, PillTone> = {
  successful: 'green',
  success: 'green',
  paid: 'green',
  pending: 'gold',
  failed: 'red',
  declined: 'red',
  expired: 'slate',
};

/** The payment provider's status of the payment; SPEC §8 'No status' when there is none. */
export function TransactionStatus({ status }: { status: string | null | undefined }) {
  if (!status) return <Pill>No status</Pill>;
  return (
    <Pill tone={statusTones[status.toLowerCase()] ?? 'slate'}>
      <span className="capitalize">{status}</span>
    </Pill>
  );
}

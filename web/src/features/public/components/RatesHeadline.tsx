import {
  ASSET_DISPLAY,
  ASSET_NAMES,
  BASE_DISPLAY,
  baseSymbol,
  formatNumber,
  MARKET_LABELS,
  type Asset,
  type Base,
  type Market,
  type Quote,
} from '@afrofx/shared';
import { Flag } from '../../../components/Flag';
import { cn } from '../../../lib/cn';
import { lastUpdated } from '../shown-rates';
import { UpdatedAt } from './RatesTable';

interface RatesHeadlineProps {
  market: Market;
  base: Base;
  /** The asset shown: the dollar, or a pair page's own asset. */
  asset?: Asset;
  /** The rates the table shows (today's, for the base), as `shownRates` picks them. */
  rates: ReadonlyArray<Quote>;
  isLoading: boolean;
}

/**
 * "Up ₦6.25 (0.42%) since the previous day": the dollar's mid against the previous day's last mid, in the base
 * currency and in percent, or why there is nothing to compare.
 */
export function changeSentence(quote: Quote): string {
  if (quote.change === null || quote.changePct === null) return 'No earlier day to compare with';
  const size = `${baseSymbol(quote.base)}${formatNumber(Math.abs(quote.change))} (${formatNumber(Math.abs(quote.changePct))}%)`;
  if (quote.change === 0) return 'Unchanged since the previous day';
  return `${quote.change > 0 ? 'Up' : 'Down'} ${size} since the previous day`;
}

function Price({ side, value }: { side: 'BUY' | 'SELL'; value: string }) {
  return (
    <div>
      <dt className="text-xs font-semibold tracking-wide text-slate-600">{side}</dt>
      <dd className="text-2xl font-extrabold tracking-tight text-slate-900 tabular-nums sm:text-3xl">
        {value}
      </dd>
    </div>
  );
}

/**
 * The chosen base's dollar in the chosen market at a glance, above the table, with the board's one
 * "Last updated" stamp. While loading it keeps its place, so the table below does not jump; with no rates from today
 * it gives way to the table's empty state.
 */
export function RatesHeadline({ market, base, asset = 'dollar', rates, isLoading }: RatesHeadlineProps) {
  const updated = lastUpdated(rates);
  if (isLoading) {
    return <div className="h-32 animate-pulse rounded-xl bg-slate-100 sm:h-24" aria-hidden="true" />;
  }
  if (!updated) return null;

  const dollar = rates.find((rate) => rate.asset === asset);
  const shown = ASSET_DISPLAY[asset];
  const symbol = baseSymbol(base);
  const direction = dollar?.change ? (dollar.change > 0 ? 'up' : 'down') : 'flat';

  return (
    <section
      aria-label={`${ASSET_NAMES[asset]} rate`}
      data-testid="rates-headline"
      className="flex flex-col gap-3 rounded-xl bg-brand-50/70 px-4 py-3 ring-1 ring-brand-100 sm:flex-row sm:items-end sm:justify-between sm:px-5 sm:py-4"
    >
      {dollar && (
        <div>
          <p className="text-sm font-semibold text-slate-700">
            <Flag asset={asset} decorative className="mr-1 align-[-3px]" /> 1 {shown.code} in{' '}
            {BASE_DISPLAY[base].code}, {MARKET_LABELS[market]} market
          </p>
          <dl className="mt-1 flex gap-6">
            <Price side="BUY" value={`${symbol}${formatNumber(dollar.buy)}`} />
            <Price side="SELL" value={`${symbol}${formatNumber(dollar.sell)}`} />
          </dl>
          <p
            className={cn(
              'mt-1 text-sm font-semibold tabular-nums',
              { up: 'text-brand-700', down: 'text-red-700', flat: 'text-slate-600' }[direction],
            )}
          >
            <span aria-hidden="true">{{ up: '▲ ', down: '▼ ', flat: '' }[direction]}</span>
            {changeSentence(dollar)}
            {dollar.change !== null && <span className="font-normal text-slate-600"> (mid rate)</span>}
          </p>
        </div>
      )}
      <p className="text-sm text-slate-700 sm:text-right">
        Last updated
        <UpdatedAt value={updated} className="block font-semibold text-slate-900" />
      </p>
    </section>
  );
}

/** One line on what the tabs and the two columns mean, said from the customer's side of the counter. */
export function MarketsExplained() {
  return (
    <p className="text-xs leading-5 text-slate-600 sm:text-sm">
      <strong className="font-semibold text-slate-800">Bank</strong> is the official bank rate,{' '}
      <strong className="font-semibold text-slate-800">Cash</strong> is for notes changed by hand and{' '}
      <strong className="font-semibold text-slate-800">Transfer</strong> for money paid by bank transfer.{' '}
      <strong className="font-semibold text-slate-800">BUY</strong> is what a dealer pays you for each unit
      you sell; <strong className="font-semibold text-slate-800">SELL</strong> is what you pay for each unit
      you buy.
    </p>
  );
}

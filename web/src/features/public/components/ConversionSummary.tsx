import {
  ASSET_DISPLAY,
  BASE_DISPLAY,
  formatDateTime,
  formatNumber,
  isSameDay,
  MARKET_LABELS,
  type Asset,
  type Base,
  type Market,
  type Rate,
} from '@afrofx/shared';
import { usePageClock } from '../../../lib/page-clock';
import type { Direction, SideChoice } from '../conversion';

/** The rate a conversion used, its side and why that side, the market and when it was published. */
export function ConversionSummary({
  rate,
  side,
  choice,
  direction,
  asset,
  base,
  market,
}: {
  rate: Rate | undefined;
  side: 'buy' | 'sell';
  choice: SideChoice;
  direction: Direction;
  asset: Asset;
  base: Base;
  market: Market;
}) {
  const { code } = ASSET_DISPLAY[asset];
  const baseShown = BASE_DISPLAY[base];
  const { now, timeZone } = usePageClock();
  if (!rate) {
    return (
      <p className="text-sm text-slate-600">
        There is no {baseShown.code} rate for {code} in the {MARKET_LABELS[market]} market yet. Try another
        market.
      </p>
    );
  }
  const value = side === 'buy' ? rate.buy : rate.sell;
  const stale = !isSameDay(rate.updatedAt, now, timeZone);
  const why =
    choice !== 'auto'
      ? `You chose the ${side} rate.`
      : direction === 'into-base'
        ? `Converting ${code} into ${baseShown.code} uses the buy price: what a dealer pays for your ${code}.`
        : `Converting ${baseShown.code} into ${code} uses the sell price: what a dealer asks for ${code}.`;
  return (
    <div>
      <p className="text-sm font-medium text-slate-500">Rate used</p>
      <p
        className="mt-1 text-3xl font-extrabold tracking-tight text-brand-900 tabular-nums"
        data-testid="rate-used"
      >
        {baseShown.symbol}
        {formatNumber(value)}
        <span className="ml-2 text-base font-semibold text-slate-500">per 1 {code}</span>
      </p>
      <dl className="mt-4 grid grid-cols-2 gap-3 text-sm">
        <div className="rounded-lg bg-slate-50 p-3">
          <dt className="text-slate-500">Side</dt>
          <dd className="font-semibold text-slate-900">{side === 'buy' ? 'Buy rate' : 'Sell rate'}</dd>
        </div>
        <div className="rounded-lg bg-slate-50 p-3">
          <dt className="text-slate-500">Market</dt>
          <dd className="font-semibold text-slate-900">{MARKET_LABELS[market]}</dd>
        </div>
        <div className="col-span-2 rounded-lg bg-slate-50 p-3">
          <dt className="text-slate-500">Last updated</dt>
          <dd className="font-semibold text-slate-900 tabular-nums">
            {formatDateTime(rate.updatedAt, timeZone)}
          </dd>
        </div>
      </dl>
      <p className="mt-4 text-sm text-slate-600" data-testid="side-explained">
        {why}
      </p>
      {stale && (
        <p className="mt-4 rounded-lg bg-gold-50 p-3 text-sm text-gold-700 ring-1 ring-gold-400/30 ring-inset">
          This rate was not updated today, so the market may have moved since.
        </p>
      )}
    </div>
  );
}

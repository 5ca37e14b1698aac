import { MARKET_LABELS, premiumOver, type Base, type Market, type Quote } from '@afrofx/shared';

interface PremiumLineProps {
  /** The market shown in the table; the bank tab compares the cash market. */
  market: Market;
  base: Base;
  /** The latest rates of the compared market and of the bank market, from the site's rates call. */
  marketRates: ReadonlyArray<Quote> | undefined;
  bankRates: ReadonlyArray<Quote> | undefined;
}

const ASSET = 'dollar';

/** "Cash dollar is 3.1 % above bank": the mid premium, one decimal. */
export function premiumSentence(compared: Market, midPremiumPct: number) {
  const size = Math.abs(midPremiumPct).toFixed(1);
  const subject = `${MARKET_LABELS[compared]} ${ASSET}`;
  if (size === '0.0') return `${subject} is level with bank`;
  return `${subject} is ${size} % ${midPremiumPct > 0 ? 'above' : 'below'} bank`;
}

/** The market whose premium over the bank the home page states under the table. */
export const comparedMarket = (market: Market): Market => (market === 'bank' ? 'black_market_cash' : market);

/**
 * One line under the table, "Cash dollar is 3.1 % above bank", worked out with the same shared helper as
 * GET /v1/rates/premium (mid against mid). Nothing shows while either rate is loading or missing.
 */
export function PremiumLine({ market, base, marketRates, bankRates }: PremiumLineProps) {
  const compared = comparedMarket(market);
  const find = (rates: ReadonlyArray<Quote> | undefined, m: Market) =>
    rates?.find((r) => r.market === m && r.base === base && r.asset === ASSET);
  const quote = find(marketRates, compared);
  const bank = find(bankRates, 'bank');
  if (!quote || !bank) return <p className="min-h-5 px-4 pt-3 text-sm sm:px-0" aria-hidden="true" />;

  return (
    <p className="min-h-5 px-4 pt-3 text-sm sm:px-0" data-testid="premium-line">
      <span className="font-semibold text-slate-900">
        {premiumSentence(compared, premiumOver(quote, bank).mid)}
      </span>{' '}
      <span className="text-slate-500">(mid rates)</span>
    </p>
  );
}

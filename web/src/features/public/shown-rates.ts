import { ASSETS, isSameDay, type Base, type Quote } from '@afrofx/shared';

const assetOrder = (rate: Quote) => ASSETS.indexOf(rate.asset);

/**
 * SPEC §2: the rates the home page shows for a base, in the fixed asset order (USD, EURO, GBP, CAD), or none at all
 * when not one of them is from today (the page then says 'Rates have not been updated today.'). The table and the
 * headline above it read the same list, so they never disagree.
 */
export function shownRates(
  rates: ReadonlyArray<Quote> | undefined,
  base: Base,
  now: Date,
  timeZone?: string,
): Quote[] {
  const forBase = (rates ?? [])
    .filter((rate) => rate.base === base)
    .sort((a, b) => assetOrder(a) - assetOrder(b));
  return forBase.some((rate) => isSameDay(rate.updatedAt, now, timeZone)) ? forBase : [];
}

/** The latest update among the rates shown: the one "Last updated" of the board. */
export function lastUpdated(rates: ReadonlyArray<Quote>): string | null {
  return rates.reduce<string | null>(
    (latest, rate) =>
      latest === null || Date.parse(rate.updatedAt) > Date.parse(latest) ? rate.updatedAt : latest,
    null,
  );
}

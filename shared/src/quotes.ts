// What a quote says about itself (mid, spread, change) and how far one market sits above another. One copy for the
// server (paid API, site calls) and the site, so the home page's premium line and the API never disagree.
//
// Rates are stored with 6 decimal places, so prices and their differences are computed in whole millionths:
// 1510.25 − 1500.5 is 9.75, never 9.750000000000227. Percentages are rounded to 4 decimal places.

import type { Quote, Rate } from './contracts/rates';

const PRICE_SCALE = 1_000_000;
const PERCENT_SCALE = 10_000;

const millionths = (value: number) => Math.round(value * PRICE_SCALE);
const percent = (ratio: number) => Math.round(ratio * 100 * PERCENT_SCALE) / PERCENT_SCALE;

export interface Prices {
  buy: number;
  sell: number;
}

/** (buy + sell) / 2, rounded half up to the 6 decimal places rates are stored with. */
export function midPrice({ buy, sell }: Prices): number {
  return Math.round((millionths(buy) + millionths(sell)) / 2) / PRICE_SCALE;
}

export interface QuoteFigures {
  mid: number;
  spread: number;
  spreadPct: number;
  change: number | null;
  changePct: number | null;
}

/**
 * spread = sell − buy; spreadPct = spread / mid × 100; change = mid − the previous close's mid;
 * changePct = change / previous mid × 100. Without a previous close, change and changePct are null.
 */
export function quoteFigures(latest: Prices, previous: Prices | null): QuoteFigures {
  const mid = midPrice(latest);
  const spreadMillionths = millionths(latest.sell) - millionths(latest.buy);
  const previousMid = previous ? midPrice(previous) : null;
  const changeMillionths = previousMid === null ? null : millionths(mid) - millionths(previousMid);
  return {
    mid,
    spread: spreadMillionths / PRICE_SCALE,
    spreadPct: percent(spreadMillionths / millionths(mid)),
    change: changeMillionths === null ? null : changeMillionths / PRICE_SCALE,
    changePct:
      changeMillionths === null || previousMid === null
        ? null
        : percent(changeMillionths / millionths(previousMid)),
  };
}

/** How far `price` sits above `reference`, in percent (negative when below). */
export function premiumPct(price: number, reference: number): number {
  return percent((millionths(price) - millionths(reference)) / millionths(reference));
}

export interface PremiumFigures {
  buy: number;
  sell: number;
  mid: number;
}

/** A market's buy, sell and mid premium over the reference (bank) market's, in percent. */
export function premiumOver(market: Prices, reference: Prices): PremiumFigures {
  return {
    buy: premiumPct(market.buy, reference.buy),
    sell: premiumPct(market.sell, reference.sell),
    mid: premiumPct(midPrice(market), midPrice(reference)),
  };
}

export interface Freshness {
  ageSeconds: number;
  stale: boolean;
}

/** Age of a quote at `nowMs`, and whether it is older than `staleAfterMs`. */
export function freshness(updatedAtMs: number, nowMs: number, staleAfterMs: number): Freshness {
  const ageMs = Math.max(nowMs - updatedAtMs, 0);
  return { ageSeconds: Math.floor(ageMs / 1000), stale: ageMs > staleAfterMs };
}

/** A quote without its age, which depends on the moment of the answer: what a cache can hold. */
export type QuoteWithoutAge = Omit<Quote, 'ageSeconds' | 'stale'>;

export function describeQuote(rate: Rate, previousClose: Prices | null): QuoteWithoutAge {
  return { ...rate, ...quoteFigures(rate, previousClose) };
}

export function withFreshness(quotes: QuoteWithoutAge[], nowMs: number, staleAfterMs: number): Quote[] {
  return quotes.map((quote) => ({
    ...quote,
    ...freshness(Date.parse(quote.updatedAt), nowMs, staleAfterMs),
  }));
}

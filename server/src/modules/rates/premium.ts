// Parallel premium: how far the cash and transfer markets sit above the reference for one pair. The reference is the
// central bank's official series where the pair has one, the hand-typed bank market otherwise.
import {
  formatUtcDate,
  OFFICIAL_SOURCE_ATTRIBUTION,
  premiumOver,
  type Asset,
  type Base,
  type Market,
  type Premium,
  type PremiumFigures,
  type Prices,
  type Rate,
} from '@afrofx/shared';
import type { OfficialRate } from '../official-rates/official-rates.repo';
import type { DailyClose } from './rates.service';

/** The official series of a pair: its newest figure, and its figures since the start of the longest window. */
export interface OfficialReference {
  latest: OfficialRate;
  daily: OfficialRate[];
}

/** A source that publishes only a mid is compared on both sides with it. */
const pricesOf = (figure: OfficialRate): Prices => ({
  buy: figure.buy ?? figure.mid,
  sell: figure.sell ?? figure.mid,
});

export const PREMIUM_MARKETS = ['black_market_cash', 'black_market_transfer'] as const satisfies Market[];
export const REFERENCE_MARKET: Market = 'bank';
export const PREMIUM_WINDOWS = { last7Days: 7, last30Days: 30 } as const;

const DAY_MS = 86_400_000;
const FIGURES = ['buy', 'sell', 'mid'] as const;

/** The first UTC day of a window of `days` days ending with today. */
export const windowStart = (today: string, days: number) =>
  formatUtcDate(new Date(Date.parse(`${today}T00:00:00Z`) - (days - 1) * DAY_MS));

const round4 = (value: number) => Math.round(value * 10_000) / 10_000;

function summarise(
  daily: PremiumFigures[],
  from: string,
  to: string,
): Premium['markets'][number]['last7Days'] {
  if (daily.length === 0) return { from, to, days: 0, average: null, minimum: null, maximum: null };
  const over = (pick: (values: number[]) => number) =>
    Object.fromEntries(FIGURES.map((f) => [f, pick(daily.map((d) => d[f]))])) as unknown as PremiumFigures;
  return {
    from,
    to,
    days: daily.length,
    average: over((values) => round4(values.reduce((sum, v) => sum + v, 0) / values.length)),
    minimum: over((values) => Math.min(...values)),
    maximum: over((values) => Math.max(...values)),
  };
}

/**
 * `latest`: the latest rate of each market for the pair; `closes`: each UTC day's last entry of the bank and premium
 * markets since the start of the longest window. A day counts in a window only when both markets have an entry.
 */
export function premiumOf(
  base: Base,
  asset: Asset,
  latest: Rate[],
  closes: DailyClose[],
  today: string,
  official?: OfficialReference,
): Premium {
  const find = (market: Market) =>
    latest.find((r) => r.market === market && r.base === base && r.asset === asset);
  const bank = find(REFERENCE_MARKET);
  const reference: (Prices & { updatedAt: string }) | undefined = official
    ? { ...pricesOf(official.latest), updatedAt: `${official.latest.date}T00:00:00.000Z` }
    : bank;
  const referenceCloses = new Map<string, Prices>(
    official
      ? official.daily.map((figure) => [figure.date, pricesOf(figure)])
      : closes.filter((c) => c.market === REFERENCE_MARKET).map((c) => [c.day, c]),
  );

  return {
    base,
    asset,
    ...(official && {
      official: {
        source: official.latest.source,
        date: official.latest.date,
        attribution: OFFICIAL_SOURCE_ATTRIBUTION[official.latest.source],
      },
    }),
    markets: PREMIUM_MARKETS.map((market) => {
      const current = find(market);
      const daily = closes
        .filter((c) => c.market === market && referenceCloses.has(c.day))
        .map((c) => ({ day: c.day, figures: premiumOver(c, referenceCloses.get(c.day)!) }));
      const window = (days: number) => {
        const from = windowStart(today, days);
        return summarise(
          daily.filter((d) => d.day >= from && d.day <= today).map((d) => d.figures),
          from,
          today,
        );
      };
      return {
        market,
        now:
          current && reference
            ? {
                ...premiumOver(current, reference),
                updatedAt: current.updatedAt,
                bankUpdatedAt: reference.updatedAt,
              }
            : null,
        last7Days: window(PREMIUM_WINDOWS.last7Days),
        last30Days: window(PREMIUM_WINDOWS.last30Days),
      };
    }),
  };
}

import {
  ASSETS,
  BASES,
  describeQuote,
  type Asset,
  type Base,
  type Market,
  type Prices,
  type Quote,
  type Rate,
} from '@afrofx/shared';

/** A rate as the site's rates call sends it, with its quote fields worked out by the shared helper. */
export function makeRate(
  overrides: Partial<Rate> & { asset: Asset; base: Base },
  updatedAt: Date,
  previousClose: Prices | null = null,
): Quote {
  const stamp = updatedAt.toISOString();
  const rate: Rate = {
    _id: `${overrides.market ?? 'black_market_cash'}-${overrides.base}-${overrides.asset}`,
    market: 'black_market_cash',
    buy: 1500,
    sell: 1520,
    createdAt: stamp,
    updatedAt: stamp,
    source: 'desk',
    publishedAt: stamp,
    publicationId: null,
    revision: 0,
    ...overrides,
  } as Rate;
  return { ...describeQuote(rate, previousClose), ageSeconds: 0, stale: false };
}

/** The latest rates of one market: every base × asset, all stamped `updatedAt`. */
export function marketRates(market: Market, updatedAt: Date, buy = 1530.5, sell = 1545.25): Quote[] {
  return BASES.flatMap((base) =>
    ASSETS.map((asset) => makeRate({ market, base, asset, buy, sell }, updatedAt)),
  );
}

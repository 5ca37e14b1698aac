import { ASSETS, BASES, type Asset, type Base, type Market, type Rate } from '@afrofx/shared';

/** A rate record as the server sends it. */
export function makeRate(overrides: Partial<Rate> & { asset: Asset; base: Base }, updatedAt: Date): Rate {
  const stamp = updatedAt.toISOString();
  return {
    _id: `${overrides.market ?? 'black_market_cash'}-${overrides.base}-${overrides.asset}`,
    market: 'black_market_cash',
    buy: 1500,
    sell: 1520,
    createdAt: stamp,
    updatedAt: stamp,
    ...overrides,
  };
}

/** The latest rates of one market: every base × asset, all stamped `updatedAt`. */
export function marketRates(market: Market, updatedAt: Date, buy = 1530.5, sell = 1545.25): Rate[] {
  return BASES.flatMap((base) =>
    ASSETS.map((asset) => makeRate({ market, base, asset, buy, sell }, updatedAt)),
  );
}

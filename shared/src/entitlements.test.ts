import {
  ALL_ENTITLEMENTS,
  cheapestPlanOpening,
  entitlementGap,
  entitlementLines,
  entitlementRefusal,
  type Entitlements,
} from './entitlements';

const free: Entitlements = { endpoints: ['latest'], historyDays: 0, markets: ['bank'], burstPerSecond: 2 };
const growth: Entitlements = {
  endpoints: ['latest', 'convert', 'history'],
  historyDays: 90,
  markets: ['black_market_cash', 'bank', 'black_market_transfer'],
  burstPerSecond: 25,
};
const plans = [
  { name: 'Business', amount: 1200, entitlements: ALL_ENTITLEMENTS },
  { name: 'Free', amount: 0, entitlements: free },
  { name: 'Growth', amount: 480, entitlements: growth },
];

describe('entitlementGap', () => {
  it('names the first thing a call asks that the plan does not open', () => {
    expect(entitlementGap(free, { endpoint: 'latest', market: 'bank' })).toBeNull();
    expect(entitlementGap(free, { endpoint: 'convert' })).toEqual({ kind: 'endpoint', endpoint: 'convert' });
    expect(entitlementGap(free, { endpoint: 'latest', market: 'black_market_cash' })).toEqual({
      kind: 'market',
      market: 'black_market_cash',
    });
    expect(entitlementGap(growth, { endpoint: 'history', daysBack: 90 })).toBeNull();
    expect(entitlementGap(growth, { endpoint: 'history', daysBack: 91 })).toEqual({
      kind: 'history',
      daysBack: 91,
    });
    expect(entitlementGap(growth, { endpoint: 'history', export: true })).toEqual({
      kind: 'endpoint',
      endpoint: 'exports',
    });
  });
});

describe('cheapestPlanOpening and the refusal', () => {
  it('names the cheapest plan that opens the call, or says none on sale does', () => {
    expect(cheapestPlanOpening(plans, { endpoint: 'convert' })?.name).toBe('Growth');
    expect(cheapestPlanOpening(plans, { endpoint: 'history', daysBack: 200 })?.name).toBe('Business');
    expect(cheapestPlanOpening(plans, { endpoint: 'latest' })?.name).toBe('Free');
    const opening = cheapestPlanOpening(plans.slice(1), { endpoint: 'ohlc' });
    expect(opening).toBeUndefined();
    expect(entitlementRefusal('Free', { kind: 'endpoint', endpoint: 'ohlc' }, opening)).toBe(
      'OHLC candles (ohlc) is not included in your Free plan. No plan on sale includes it; contact us for a custom plan.',
    );
  });
});

describe('entitlementLines', () => {
  it('lists on the card what the API opens', () => {
    expect(entitlementLines(free)).toEqual(['Latest rates for the Bank market', 'Up to 2 calls a second']);
    expect(entitlementLines(growth)).toEqual([
      'Latest rates for every market',
      'Currency conversion endpoint',
      '90-day rate history',
      'Up to 25 calls a second',
    ]);
  });
});

// What a plan opens, once for both sides. The admin sets it on the plan, a subscription keeps the copy it
// was bought with, the paid API refuses what it does not open (403, naming the cheapest plan that does), and the plan
// card lists it from the same data, so the pricing page and the API cannot disagree.
import { Type, type Static } from '@sinclair/typebox';
import { MARKETS, MARKET_LABELS, type Market } from './constants';
import { StringEnum } from './contracts/common';
import { MAX_HISTORY_DAYS } from './contracts/api';

export const ENDPOINTS = ['latest', 'convert', 'history', 'ohlc', 'premium', 'webhooks', 'exports'] as const;
export type Endpoint = (typeof ENDPOINTS)[number];

/** How the card names each endpoint; the 403's sentence uses the same words. */
export const ENDPOINT_LABELS: Record<Endpoint, string> = {
  latest: 'Latest rates',
  convert: 'Currency conversion endpoint',
  history: 'Daily rate history',
  ohlc: 'OHLC candles',
  premium: 'Parallel-market premium',
  webhooks: 'Rate webhooks',
  exports: 'CSV and NDJSON exports',
};

export const Entitlements = Type.Object(
  {
    endpoints: Type.Array(StringEnum(ENDPOINTS), { uniqueItems: true, maxItems: ENDPOINTS.length }),
    historyDays: Type.Integer({
      minimum: 0,
      maximum: MAX_HISTORY_DAYS,
      description: 'How many days back history and candles reach (0 with no history)',
    }),
    markets: Type.Array(StringEnum(MARKETS), { minItems: 1, uniqueItems: true, maxItems: MARKETS.length }),
    burstPerSecond: Type.Integer({ minimum: 1, maximum: 10_000, description: 'Requests per second per key' }),
  },
  { additionalProperties: false },
);
export type Entitlements = Static<typeof Entitlements>;

/**
 * What a plan opens when nobody said otherwise: a subscription bought before entitlements existed keeps everything
 * it was sold with, and a plan created without them opens everything (the admin narrows it).
 */
export const ALL_ENTITLEMENTS: Entitlements = {
  endpoints: [...ENDPOINTS],
  historyDays: MAX_HISTORY_DAYS,
  markets: [...MARKETS],
  burstPerSecond: 50,
};

/** What one call asks of a plan. */
export interface EntitlementNeed {
  endpoint?: Endpoint;
  /** The oldest UTC day (YYYY-MM-DD) the call reads, as days back from today. */
  daysBack?: number;
  market?: Market;
  export?: boolean;
}

export type EntitlementGap =
  | { kind: 'endpoint'; endpoint: Endpoint }
  | { kind: 'history'; daysBack: number }
  | { kind: 'market'; market: Market };

/** The first thing `need` asks that `entitlements` does not open, or null when it opens all of it. */
export function entitlementGap(entitlements: Entitlements, need: EntitlementNeed): EntitlementGap | null {
  if (need.endpoint && !entitlements.endpoints.includes(need.endpoint))
    return { kind: 'endpoint', endpoint: need.endpoint };
  if (need.export && !entitlements.endpoints.includes('exports'))
    return { kind: 'endpoint', endpoint: 'exports' };
  if (need.market && !entitlements.markets.includes(need.market))
    return { kind: 'market', market: need.market };
  if (need.daysBack !== undefined && need.daysBack > entitlements.historyDays)
    return { kind: 'history', daysBack: need.daysBack };
  return null;
}

/** A plan as the refusal reads it: its name, yearly price and what it opens. */
export interface PlanEntitlements {
  name: string;
  amount: number;
  entitlements: Entitlements;
}

/** The cheapest plan on sale that opens all of `need` (ties: the first given). */
export function cheapestPlanOpening<T extends PlanEntitlements>(plans: readonly T[], need: EntitlementNeed) {
  return plans
    .filter((plan) => entitlementGap(plan.entitlements, need) === null)
    .reduce<T | undefined>((best, plan) => (!best || plan.amount < best.amount ? plan : best), undefined);
}

function gapWords(gap: EntitlementGap): string {
  switch (gap.kind) {
    case 'endpoint':
      return `${ENDPOINT_LABELS[gap.endpoint]} (${gap.endpoint})`;
    case 'history':
      return `History ${gap.daysBack} days back`;
    case 'market':
      return `The ${MARKET_LABELS[gap.market]} market (${gap.market})`;
  }
}

/** The 403's sentence: what is not included, and the plan that opens it (or that none on sale does). */
export function entitlementRefusal(
  planName: string,
  gap: EntitlementGap,
  opening: Pick<PlanEntitlements, 'name'> | undefined,
): string {
  const what = gapWords(gap);
  const where = opening
    ? `Upgrade to ${opening.name} to use it.`
    : 'No plan on sale includes it; contact us for a custom plan.';
  return `${what} is not included in your ${planName} plan. ${where}`;
}

const grouped = (n: number) => n.toLocaleString('en-US');

/** The card's lines beside its monthly quota, from the same entitlements the API enforces. */
export function entitlementLines(entitlements: Entitlements): string[] {
  const { endpoints, historyDays, markets, burstPerSecond } = entitlements;
  const lines: string[] = [];
  const marketWords =
    markets.length === MARKETS.length
      ? 'every market'
      : `the ${markets.map((m) => MARKET_LABELS[m]).join(' and ')} market${markets.length > 1 ? 's' : ''}`;
  for (const endpoint of ENDPOINTS) {
    if (!endpoints.includes(endpoint)) continue;
    if (endpoint === 'latest') lines.push(`Latest rates for ${marketWords}`);
    else if (endpoint === 'history') lines.push(`${historyDays}-day rate history`);
    else lines.push(ENDPOINT_LABELS[endpoint]);
  }
  lines.push(`Up to ${grouped(burstPerSecond)} calls a second`);
  return lines;
}

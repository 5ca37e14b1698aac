// The paid API opens what the key's plan was sold with. What a call needs is read from its route and
// parameters (pure, below); the guard compares it with the entitlements cached with the key, so the check makes no
// database round trip. A refusal is a free 403 naming the cheapest plan on sale that opens the call.
import type { FastifyRequest } from 'fastify';
import {
  DEFAULT_MARKET,
  cheapestPlanOpening,
  entitlementGap,
  entitlementRefusal,
  formatUtcDate,
  type EntitlementNeed,
  type CandleInterval,
  type ExportFormat,
  type Market,
  type PlanEntitlements,
} from '@afrofx/shared';
import { DomainError } from '../../errors';
import { candleRange, historyRange } from '../../rate-range';
import { answerFormat } from './row-streams';

const DAY_MS = 86_400_000;

/** Whole UTC days from `day` (YYYY-MM-DD) back to `today`; undefined for a day that does not parse. */
function daysBack(day: unknown, today: string): number | undefined {
  if (typeof day !== 'string') return undefined;
  const days = Math.round((Date.parse(`${today}T00:00:00Z`) - Date.parse(`${day}T00:00:00Z`)) / DAY_MS);
  return Number.isFinite(days) ? Math.max(days, 0) : undefined;
}

export interface CallQuery {
  market?: Market;
  from?: string;
  to?: string;
  date?: string;
  format?: ExportFormat;
  interval?: CandleInterval;
}

/** The first day a range reads, or undefined when the range is invalid: the route answers its own 400 then. */
function firstDay(range: () => { from: string }): string | undefined {
  try {
    return range().from;
  } catch {
    return undefined;
  }
}

/**
 * What a paid route asks of the plan, by its path under /v1; null for a call every plan may make. History and
 * candles reach back to the first day of their range (their defaults included).
 */
export function needOf(
  path: string,
  query: CallQuery,
  accept: string | undefined,
  now: Date,
): EntitlementNeed | null {
  const today = formatUtcDate(now);
  const exported = answerFormat(accept, query.format) !== 'json';
  switch (path) {
    case '/rates':
      return {
        endpoint: 'latest',
        market: query.market,
        daysBack: query.date ? daysBack(query.date, today) : undefined,
      };
    case '/rates/history':
      return {
        endpoint: 'history',
        market: query.market,
        daysBack: daysBack(
          firstDay(() => historyRange(query, now)),
          today,
        ),
        export: exported,
      };
    case '/rates/ohlc':
      return {
        endpoint: 'ohlc',
        market: query.market,
        daysBack: daysBack(
          firstDay(() => candleRange(query.interval ?? 'day', query, now)),
          today,
        ),
        export: exported,
      };
    case '/rates/premium':
      return { endpoint: 'premium' };
    case '/convert':
      return { endpoint: 'convert', market: query.market ?? DEFAULT_MARKET };
    default:
      // /currencies and /usage are open to every plan.
      return null;
  }
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * For a call that stands for another paid call (an Open Exchange Rates- or Fixer-compatible one): the path under
     * /v1 and the query its plan is checked as, so its entitlements are that call's and no second copy of them.
     */
    paidCall?: (request: FastifyRequest) => { path: string; query: CallQuery };
  }
}

const PLANS_TTL_MS = 60_000;

/**
 * The entitlement check of the paid routes, run first in each handler once the parameters are validated (paid-api.ts):
 * null when the key's plan opens the call, else the refusal (a 403, free), given once the plans on sale are read to
 * name one that opens it. They are kept a minute. (The plan's burst rate is counted with the quota, by the metering
 * plugin's quota store.)
 */
export function createEntitlementGuard(loadPlans: () => Promise<PlanEntitlements[]>, prefix = '/v1') {
  let plans: { at: number; list: Promise<PlanEntitlements[]> } | undefined;
  const plansOnSale = () => {
    if (!plans || Date.now() - plans.at > PLANS_TTL_MS) {
      const list = loadPlans();
      plans = { at: Date.now(), list };
      list.catch(() => (plans = undefined));
    }
    return plans.list;
  };

  // No promise for a call the plan opens: only a refusal waits.
  return function refusalOf(request: FastifyRequest): Promise<DomainError> | null {
    const client = request.metered?.client;
    const entitlements = client?.subscription?.entitlements;
    // Premium accounts (SPEC §6) have no plan, and every call is open to them. A subscription bought before
    // entitlements existed was sold as opening everything.
    if (!client || client.premium || !client.subscription || !entitlements) return null;
    const planName = client.subscription.planName;
    const call = request.routeOptions.config.paidCall?.(request) ?? {
      path: (request.routeOptions.url ?? '').slice(prefix.length),
      query: request.query as CallQuery,
    };
    const need = needOf(call.path, call.query, request.headers.accept, new Date());
    const gap = need && entitlementGap(entitlements, need);
    if (!gap) return null;
    return plansOnSale()
      .catch(() => [])
      .then(
        (list) => new DomainError(403, entitlementRefusal(planName, gap, cheapestPlanOpening(list, need!))),
      );
  };
}

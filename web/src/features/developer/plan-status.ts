import { endsWithinUpgradeWindow, FALLBACK_USD_RATE, type Subscription } from '@afrofx/shared';

const DAY_MS = 86_400_000;

export type PlanBannerKind = 'upcoming' | 'expiring';

type MaybeSubscription = Subscription | null | undefined;

/**
 * SPEC §4 banners: an upcoming plan says it starts when the current one ends; a plan that is not expired
 * but ends within the upgrade window, with nothing upcoming, asks the developer to subscribe.
 */
export function planBanner(
  current: MaybeSubscription,
  upcoming: MaybeSubscription,
  now = new Date(),
): PlanBannerKind | null {
  if (upcoming) return 'upcoming';
  if (current && endsWithinUpgradeWindow(current, now)) return 'expiring';
  return null;
}

/** Whole days left before `expireAt`, never below zero. */
export function daysLeft(subscription: Subscription, now = new Date()): number {
  return Math.max(0, Math.ceil((Date.parse(subscription.expireAt) - now.getTime()) / DAY_MS));
}

/** This month's share of the quota used, 0 to 100. */
export function usagePercent(subscription: Pick<Subscription, 'processedRequest' | 'limit'>): number {
  if (subscription.limit <= 0) return 100;
  return Math.min(100, (subscription.processedRequest / subscription.limit) * 100);
}

/**
 * SPEC §9: the dollar buy rate NGN prices use, 740 when none could be loaded; undefined while it is loading, so no
 * price is shown that the server would not charge.
 */
export function pricingRate(query: { data?: number; isLoading: boolean }): number | undefined {
  if (query.data !== undefined) return query.data;
  return query.isLoading ? undefined : FALLBACK_USD_RATE;
}

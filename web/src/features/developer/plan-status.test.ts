import { makeSubscription } from '../../test/developer';
import { canBuyPlan, isUpcomingPurchase } from '@afrofx/shared';
import { daysLeft, planBanner, pricingRate, usagePercent } from './plan-status';

const now = new Date('2026-03-10T12:00:00Z');
const endingIn = (days: number, overrides = {}) => makeSubscription(overrides, now, days);

describe('plan banners (SPEC §4)', () => {
  it('announces an upcoming plan, whatever the current plan', () => {
    const upcoming = endingIn(370, { status: 'upcoming' });
    expect(planBanner(endingIn(3), upcoming, now)).toBe('upcoming');
    expect(planBanner(endingIn(200), upcoming, now)).toBe('upcoming');
    expect(planBanner(null, upcoming, now)).toBe('upcoming');
  });

  it('asks to subscribe when the plan ends within 5 days and nothing is upcoming', () => {
    expect(planBanner(endingIn(5), null, now)).toBe('expiring');
    expect(planBanner(endingIn(1), null, now)).toBe('expiring');
    expect(planBanner(endingIn(0.01), undefined, now)).toBe('expiring');
  });

  it('also asks when an exhausted plan is about to end', () => {
    expect(planBanner(endingIn(2, { status: 'exhausted' }), null, now)).toBe('expiring');
  });

  it('shows nothing for a plan with more than 5 days left', () => {
    expect(planBanner(endingIn(5.01), null, now)).toBeNull();
    expect(planBanner(endingIn(200), null, now)).toBeNull();
  });

  it('shows nothing for an expired plan or no plan', () => {
    expect(planBanner(endingIn(-1, { status: 'expired' }), null, now)).toBeNull();
    expect(planBanner(endingIn(2, { status: 'expired' }), null, now)).toBeNull();
    expect(planBanner(endingIn(-1), null, now)).toBeNull();
    expect(planBanner(null, null, now)).toBeNull();
    expect(planBanner(undefined, undefined, now)).toBeNull();
  });
});

describe('buying a plan (SPEC §4)', () => {
  it('is allowed without a plan, or with one that is not active', () => {
    expect(canBuyPlan(null, null, now)).toBe(true);
    expect(canBuyPlan(endingIn(-3, { status: 'expired' }), null, now)).toBe(true);
    expect(canBuyPlan(endingIn(100, { status: 'exhausted' }), null, now)).toBe(true);
  });

  it('is allowed in the last 5 days of an active plan', () => {
    expect(canBuyPlan(endingIn(4), null, now)).toBe(true);
  });

  it('is refused during an active plan with more than 5 days left', () => {
    expect(canBuyPlan(endingIn(30), null, now)).toBe(false);
  });

  it('is refused while a plan is upcoming', () => {
    expect(canBuyPlan(endingIn(4), endingIn(370, { status: 'upcoming' }), now)).toBe(false);
  });
});

describe('an upcoming purchase (SPEC §4)', () => {
  it('is one made in the last 5 days of a plan still serving', () => {
    expect(isUpcomingPurchase(endingIn(4), now)).toBe(true);
  });

  it('is not one without a plan, after it expired, over an exhausted plan, or earlier in its term', () => {
    // An exhausted plan serves nothing: a purchase over it starts at once, in its last 5 days too.
    expect(isUpcomingPurchase(endingIn(2, { status: 'exhausted' }), now)).toBe(false);
    expect(isUpcomingPurchase(null, now)).toBe(false);
    expect(isUpcomingPurchase(endingIn(-1, { status: 'expired' }), now)).toBe(false);
    expect(isUpcomingPurchase(endingIn(2, { status: 'expired' }), now)).toBe(false);
    expect(isUpcomingPurchase(endingIn(30, { status: 'exhausted' }), now)).toBe(false);
  });
});

describe('plan figures', () => {
  it('counts whole days left, never below zero', () => {
    expect(daysLeft(endingIn(4.2), now)).toBe(5);
    expect(daysLeft(endingIn(-2), now)).toBe(0);
  });

  it('gives the share of the monthly quota used, capped at 100', () => {
    expect(usagePercent({ processedRequest: 25_000, limit: 100_000 })).toBe(25);
    expect(usagePercent({ processedRequest: 120, limit: 100 })).toBe(100);
    expect(usagePercent({ processedRequest: 0, limit: 0 })).toBe(100);
  });
});

describe('the dollar rate of NGN prices (SPEC §9)', () => {
  it('is the loaded cash-market buy rate', () => {
    expect(pricingRate({ data: 1520.5, isLoading: false })).toBe(1520.5);
  });

  it('falls back to 740 when no rate could be loaded', () => {
    expect(pricingRate({ isLoading: false })).toBe(740);
  });

  it('is unknown while the rate is loading', () => {
    expect(pricingRate({ isLoading: true })).toBeUndefined();
  });
});

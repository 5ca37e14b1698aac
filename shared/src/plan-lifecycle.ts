// SPEC §4 and DESIGN §4: the rules of a plan's life, once for both sides. The server enforces them (what may be
// bought, when a plan starts and ends, which month of its term counts) and the portal shows them; a test
// (plan-lifecycle.test.ts) fails if either side keeps a copy of its own.
import { UPGRADE_WINDOW_DAYS, type SubscriptionStatus } from './constants';
import { toCents } from './pricing';

/** A plan bought gives 12 months, counted in calendar months from its start. */
export const TERM_MONTHS = 12;

const DAY_MS = 86_400_000;

/** What the rules read of a plan: its state and its end (an ISO string on the wire, a Date in the database). */
export interface PlanTerm {
  status: SubscriptionStatus;
  expireAt: string | Date;
}

type MaybePlan = PlanTerm | null | undefined;

const msLeft = (plan: PlanTerm, now: Date) => new Date(plan.expireAt).getTime() - now.getTime();

/** A plan that has not ended but ends within the upgrade window (the last 5 days). */
export function endsWithinUpgradeWindow(plan: PlanTerm, now = new Date()): boolean {
  const left = msLeft(plan, now);
  return (
    plan.status !== 'expired' &&
    plan.status !== 'upgraded' &&
    left > 0 &&
    left <= UPGRADE_WINDOW_DAYS * DAY_MS
  );
}

/**
 * A plan can be bought when no upcoming plan exists and the current plan is not active (none, ended, exhausted)
 * or ends within the upgrade window. A plan still marked active whose end has passed has ended.
 */
export function canBuyPlan(current: MaybePlan, upcoming: MaybePlan, now = new Date()): boolean {
  if (upcoming) return false;
  if (!current || current.status !== 'active' || msLeft(current, now) <= 0) return true;
  return endsWithinUpgradeWindow(current, now);
}

/** The plans an order finds on its app: the latest one started (with its live status), and the one waiting. */
export interface RunningPlans {
  current: MaybePlan;
  upcoming: MaybePlan;
}

/** When a paid order's plan starts: now, when the current plan ends, or not at all (a second upcoming plan). */
export type PlanStart = { kind: 'now' } | { kind: 'upcoming'; startsAt: Date } | { kind: 'would-stack' };

/**
 * DESIGN §4: the one rule for when a purchase starts, read by the checkout (its isUpcoming) and by the grant. At most
 * one plan waits. An upgrade ends the plan it replaces and starts now. A plan still serving (active, not ended) is
 * followed, not cut short; an exhausted plan serves nothing, so a purchase on it starts now, in its last 5 days as
 * on any other day of its term.
 */
export function startOf(
  order: { replacesCurrent: boolean },
  running: RunningPlans,
  now = new Date(),
): PlanStart {
  if (running.upcoming) return { kind: 'would-stack' };
  const { current } = running;
  if (!current || order.replacesCurrent) return { kind: 'now' };
  if (current.status === 'active' && msLeft(current, now) > 0) {
    return { kind: 'upcoming', startsAt: new Date(current.expireAt) };
  }
  return { kind: 'now' };
}

/** A purchase (not an upgrade) that may be made now and would start when the current plan ends. */
export function isUpcomingPurchase(current: MaybePlan, now = new Date()): boolean {
  return (
    canBuyPlan(current, null, now) &&
    startOf({ replacesCurrent: false }, { current, upcoming: null }, now).kind === 'upcoming'
  );
}

/** An order's claim on the credit of the plan it replaces: pending holds it, paid has spent it. */
export interface CreditClaim {
  orderId: string;
  status: 'pending' | 'paid' | 'expired' | 'failed' | 'held';
}

/**
 * The unused term of a plan is credited once. Initializing an upgrade reserves the credit for that order (the app's
 * earlier pending order is replaced, so its reservation is released, as it is when an order expires or fails), and
 * settling consumes it in the transaction that grants the plan. An order may spend the credit while no other order
 * has spent it or holds it; otherwise it counted on a credit that is gone and is never granted at its price.
 */
export function mayTakeCredit(orderId: string, claims: CreditClaim[]): boolean {
  return !claims.some(
    (claim) => claim.orderId !== orderId && (claim.status === 'paid' || claim.status === 'pending'),
  );
}

/** The same day `months` later, or the month's last day when it is shorter (31 Jan + 1 month = 28/29 Feb). */
export function addMonths(date: Date, months: number): Date {
  const result = new Date(date);
  const day = result.getUTCDate();
  result.setUTCDate(1);
  result.setUTCMonth(result.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(result.getUTCFullYear(), result.getUTCMonth() + 1, 0)).getUTCDate();
  result.setUTCDate(Math.min(day, lastDay));
  return result;
}

/** The month of a term that `now` falls in: the monthly counter resets each month, counted from the start. */
export interface QuotaPeriod {
  index: number;
  start: Date;
  end: Date;
}

export function quotaPeriod(startsAt: Date, expireAt: Date, now: Date): QuotaPeriod {
  let index =
    (now.getUTCFullYear() - startsAt.getUTCFullYear()) * 12 + (now.getUTCMonth() - startsAt.getUTCMonth());
  if (addMonths(startsAt, index) > now) index--;
  index = Math.max(index, 0);
  const end = addMonths(startsAt, index + 1);
  return { index, start: addMonths(startsAt, index), end: end < expireAt ? end : expireAt };
}

/** The plan an upgrade leaves: its yearly price in dollars and its term. */
export interface UpgradeFrom {
  planId: string | null;
  amount: number;
  startsAt: string | Date;
  expireAt: string | Date;
}

export type Proration =
  | { kind: 'upgrade'; priceCents: number; creditCents: number; dueCents: number }
  | { kind: 'not-higher' }
  | { kind: 'ended' };

/**
 * Upgrading now credits the unused part of the current term against the new plan's price. The credit is
 * the current price times the share of the term not yet used, to the cent below (the customer is never credited a
 * cent that was not paid). Only a dearer plan is an upgrade: the same or a cheaper one waits for the renewal window.
 */
export function prorateUpgrade(
  current: UpgradeFrom,
  target: { _id: string; amount: number },
  now = new Date(),
): Proration {
  const start = new Date(current.startsAt).getTime();
  const end = new Date(current.expireAt).getTime();
  if (end <= now.getTime()) return { kind: 'ended' };
  if (target._id === current.planId || target.amount <= current.amount) return { kind: 'not-higher' };
  const priceCents = toCents(target.amount);
  const paidCents = toCents(current.amount);
  const unused = Math.min(end - Math.max(now.getTime(), start), end - start);
  const creditCents = Math.floor((paidCents * unused) / (end - start));
  return { kind: 'upgrade', priceCents, creditCents, dueCents: priceCents - creditCents };
}

// SPEC §4 and DESIGN §4: the rules of a plan's life, once for both sides. The server enforces them (what may be
// bought, when a plan starts and ends, which month of its term counts) and the portal shows them; a test
// (plan-lifecycle.test.ts) fails if either side keeps a copy of its own.
import { UPGRADE_WINDOW_DAYS } from './constants';
import { toCents } from './pricing';

/** A plan bought gives 12 months, counted in calendar months from its start. */
export const TERM_MONTHS = 12;

const DAY_MS = 86_400_000;

/** What the rules read of a plan: its state and its end (an ISO string on the wire, a Date in the database). */
export interface PlanTerm {
  status: 'active' | 'exhausted' | 'expired' | 'upcoming';
  expireAt: string | Date;
}

type MaybePlan = PlanTerm | null | undefined;

const msLeft = (plan: PlanTerm, now: Date) => new Date(plan.expireAt).getTime() - now.getTime();

/** A plan that has not ended but ends within the upgrade window (the last 5 days). */
export function endsWithinUpgradeWindow(plan: PlanTerm, now = new Date()): boolean {
  const left = msLeft(plan, now);
  return plan.status !== 'expired' && left > 0 && left <= UPGRADE_WINDOW_DAYS * DAY_MS;
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

/** A purchase within the upgrade window of a plan that has not ended starts when that plan ends. */
export function isUpcomingPurchase(current: MaybePlan, now = new Date()): boolean {
  return Boolean(current && endsWithinUpgradeWindow(current, now));
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
 * Issue 20: upgrading now credits the unused part of the current term against the new plan's price. The credit is
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

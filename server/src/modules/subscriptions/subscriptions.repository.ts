// DESIGN §4: the one place that reads and writes the subscriptions table. Other modules ask here for the plan
// serving an app, what the app may use, the count of a month of the term, and for a paid order's grant.
import { and, desc, eq, gt, inArray, lte, sql, type AnyColumn } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { accounts, apps, subscriptions } from '../../db/schema';

export type SubscriptionRow = typeof subscriptions.$inferSelect;
/** The database, or a transaction in progress. */
export type Executor = Pick<Database, 'select' | 'selectDistinct' | 'insert' | 'update'>;

/**
 * A plan in its window: active, exhausted, or upcoming whose start has come (it serves before the promotion job
 * runs).
 */
const inWindow = (now: Date) =>
  and(
    inArray(subscriptions.status, ['active', 'exhausted', 'upcoming']),
    lte(subscriptions.startsAt, now),
    gt(subscriptions.expireAt, now),
  );

/** The plan serving the app now: the latest started of those in their window. */
export async function servingNow(
  db: Executor,
  appId: string,
  now: Date,
): Promise<SubscriptionRow | undefined> {
  const [row] = await db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.appId, appId), inWindow(now)))
    .orderBy(desc(subscriptions.startsAt))
    .limit(1);
  return row;
}

/** For a query over many apps: whether the app whose id is `appId` (a column of that query) has a plan serving now. */
export const hasPlanServing = (appId: AnyColumn, now: Date) =>
  sql<boolean>`exists (select 1 from ${subscriptions} where ${subscriptions.appId} = ${appId} and ${inWindow(now)})`;

/** What an app may use: a premium account everything; otherwise what the plan serving now opens. */
export interface Access {
  premium: boolean;
  plan: Pick<SubscriptionRow, 'id' | 'planName' | 'entitlements'> | null;
}

/** The access of an app (null: no such app). */
export async function accessOf(db: Executor, appId: string, now: Date): Promise<Access | null> {
  const [app] = await db
    .select({ state: accounts.state })
    .from(apps)
    .innerJoin(accounts, eq(accounts.id, apps.accountId))
    .where(eq(apps.id, appId));
  if (!app) return null;
  return { premium: app.state === 'premium_customer', plan: (await servingNow(db, appId, now)) ?? null };
}

/**
 * The plans a new order finds on its app: those not ended, newest end first, including an upcoming one that has
 * not started.
 */
export async function runningPlans(db: Executor, appId: string, now: Date): Promise<SubscriptionRow[]> {
  return db
    .select()
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.appId, appId),
        inArray(subscriptions.status, ['active', 'exhausted', 'upcoming']),
        gt(subscriptions.expireAt, now),
      ),
    )
    .orderBy(desc(subscriptions.expireAt));
}

/**
 * The count of the month of the term that starts at `periodStart`: the stored count if it was last raised in that
 * month, else 0 (each month of the term starts again at 0).
 */
export const periodCount = (processed: number, lastIncrement: Date | null, periodStart: Date) =>
  lastIncrement && lastIncrement >= periodStart ? processed : 0;

/** The same in SQL: true when the stored count belongs to an earlier month (or none), so the month's count is 0. */
const earlierMonth = (periodStart: Date) =>
  sql`(${subscriptions.lastIncrement} IS NULL OR ${subscriptions.lastIncrement} < ${periodStart.toISOString()}::timestamptz)`;

/** The stored count of a subscription's month. */
export async function storedPeriodCount(db: Executor, subscriptionId: string, periodStart: Date) {
  return (await storedPeriodCountAndChange(db, subscriptionId, periodStart)).used;
}

/**
 * The stored count of a subscription's month, with the count change it was read at: the requests counted or given
 * back in PostgreSQL with a higher change came after the read.
 */
export async function storedPeriodCountAndChange(db: Executor, subscriptionId: string, periodStart: Date) {
  const [row] = await db
    .select({
      processed: subscriptions.processedRequests,
      lastIncrement: subscriptions.lastIncrement,
      change: subscriptions.countChanges,
    })
    .from(subscriptions)
    .where(eq(subscriptions.id, subscriptionId));
  return row
    ? { used: periodCount(row.processed, row.lastIncrement, periodStart), change: row.change }
    : { used: 0, change: 0 };
}

/**
 * Counts one request in one conditional UPDATE, shared by every process on the database: the month's count after
 * it and the count change it made, or null when the month's limit is reached.
 */
export async function countRequest(
  db: Executor,
  counted: { subscriptionId: string; limit: number; periodStart: Date },
  now: Date,
): Promise<{ used: number; change: number } | null> {
  const earlier = earlierMonth(counted.periodStart);
  const [row] = await db
    .update(subscriptions)
    .set({
      processedRequests: sql`CASE WHEN ${earlier} THEN 1 ELSE ${subscriptions.processedRequests} + 1 END`,
      countChanges: sql`${subscriptions.countChanges} + 1`,
      lastIncrement: now,
    })
    .where(
      and(
        eq(subscriptions.id, counted.subscriptionId),
        sql`(${earlier} OR ${subscriptions.processedRequests} < ${counted.limit})`,
      ),
    )
    .returning({ used: subscriptions.processedRequests, change: subscriptions.countChanges });
  return row ?? null;
}

/**
 * Gives back one request counted in the month (a month since begun has nothing to give back): the count change it
 * made, or null when it gave nothing back.
 */
export async function uncountRequest(
  db: Executor,
  subscriptionId: string,
  periodStart: Date,
): Promise<number | null> {
  const [row] = await db
    .update(subscriptions)
    .set({
      processedRequests: sql`${subscriptions.processedRequests} - 1`,
      countChanges: sql`${subscriptions.countChanges} + 1`,
    })
    .where(
      and(
        eq(subscriptions.id, subscriptionId),
        sql`${subscriptions.processedRequests} > 0`,
        sql`NOT ${earlierMonth(periodStart)}`,
      ),
    )
    .returning({ change: subscriptions.countChanges });
  return row?.change ?? null;
}

/**
 * Writes a month's count. An exact value replaces the stored one (so refunds show); a value only remembered by one
 * process never lowers what another process wrote later.
 */
export async function persistCount(
  db: Executor,
  counted: { subscriptionId: string; periodStart: Date; used: number; lastIncrement: Date },
  exact: boolean,
) {
  const { used } = counted;
  const last = counted.lastIncrement.toISOString();
  await db
    .update(subscriptions)
    .set({
      processedRequests: exact
        ? sql`${used}`
        : sql`CASE WHEN ${earlierMonth(counted.periodStart)} THEN ${used} ELSE GREATEST(${subscriptions.processedRequests}, ${used}) END`,
      lastIncrement: sql`GREATEST(COALESCE(${subscriptions.lastIncrement}, ${last}::timestamptz), ${last}::timestamptz)`,
    })
    .where(eq(subscriptions.id, counted.subscriptionId));
}

/**
 * A subscription row written as given, its count and dates included: the demo data's, sold before the demo starts.
 * The product's own subscriptions start from a paid order (grant.ts) or the Free plan.
 */
export async function insertSubscriptionAsSold(
  db: Executor,
  values: typeof subscriptions.$inferInsert,
): Promise<string> {
  const [row] = await db.insert(subscriptions).values(values).returning({ id: subscriptions.id });
  return row!.id;
}

/** Whether any subscription was sold under the plan (so the plan is retired rather than deleted). */
export async function soldUnder(db: Executor, planId: string): Promise<boolean> {
  const rows = await db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(eq(subscriptions.planId, planId))
    .limit(1);
  return rows.length > 0;
}

/** The apps of these accounts that have had a free plan. */
export async function appsWithFreePlan(db: Executor, accountIds: string[]): Promise<string[]> {
  if (accountIds.length === 0) return [];
  const rows = await db
    .selectDistinct({ appId: subscriptions.appId })
    .from(subscriptions)
    .innerJoin(apps, eq(apps.id, subscriptions.appId))
    .where(and(inArray(apps.accountId, accountIds), eq(subscriptions.amount, 0)));
  return rows.map((row) => row.appId);
}

/** The term and plan each subscription was sold with, by id, for receipts. */
export async function termsOf(db: Executor, ids: string[]) {
  const unique = [...new Set(ids)];
  const rows =
    unique.length === 0
      ? []
      : await db
          .select({
            id: subscriptions.id,
            startsAt: subscriptions.startsAt,
            expireAt: subscriptions.expireAt,
            planName: subscriptions.planName,
            requestLimit: subscriptions.requestLimit,
          })
          .from(subscriptions)
          .where(inArray(subscriptions.id, unique));
  return new Map(rows.map((row) => [row.id, row]));
}

// DESIGN §4 subscription states, kept by an hourly job (jobs/subscription-lifecycle.job.ts). Every step is a
// conditional UPDATE from the state it expects, so running it twice, or beside the paid API, changes nothing more.
import { and, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import { quotaPeriod } from '@afrofx/shared';
import type { ChangeFeed } from '../../change-feed';
import type { Database } from '../../db/client';
import { accounts, apps, subscriptions, usageWarnings } from '../../db/schema';
import { periodCount } from './subscriptions.repository';

export const WARNING_PERCENTS = [80, 100] as const;

export interface UsageWarning {
  subscriptionId: string;
  periodStart: Date;
  percent: number;
  email: string;
  firstName: string;
  appName: string;
  planName: string;
  used: number;
  limit: number;
  resetsAt: Date;
}

export interface LifecycleResult {
  expired: number;
  promoted: number;
  reset: number;
  statusChanged: number;
  warnings: UsageWarning[];
}

export function createSubscriptionLifecycle(db: Database, changes: ChangeFeed) {
  return {
    async run(now: Date): Promise<LifecycleResult> {
      const touched = new Set<string>();
      const expired = await db
        .update(subscriptions)
        .set({ status: 'expired' })
        .where(
          and(
            inArray(subscriptions.status, ['active', 'exhausted', 'upcoming']),
            lte(subscriptions.expireAt, now),
          ),
        )
        .returning({ appId: subscriptions.appId });
      const promoted = await db
        .update(subscriptions)
        .set({ status: 'active' })
        .where(
          and(
            eq(subscriptions.status, 'upcoming'),
            lte(subscriptions.startsAt, now),
            gt(subscriptions.expireAt, now),
          ),
        )
        .returning({ appId: subscriptions.appId });
      [...expired, ...promoted].forEach((row) => touched.add(row.appId));

      const running = await db
        .select({
          subscription: subscriptions,
          appName: apps.name,
          email: accounts.email,
          firstName: accounts.firstName,
        })
        .from(subscriptions)
        .innerJoin(apps, eq(apps.id, subscriptions.appId))
        .innerJoin(accounts, eq(accounts.id, apps.accountId))
        .where(
          and(
            inArray(subscriptions.status, ['active', 'exhausted']),
            lte(subscriptions.startsAt, now),
            gt(subscriptions.expireAt, now),
          ),
        );

      let reset = 0;
      let statusChanged = 0;
      const warnings: UsageWarning[] = [];
      for (const { subscription: row, appName, email, firstName } of running) {
        const period = quotaPeriod(row.startsAt, row.expireAt, now);
        const used = periodCount(row.processedRequests, row.lastIncrement, period.start);
        if (used !== row.processedRequests) {
          // A new month of the term: last month's count is reset, unless the paid API counted meanwhile.
          const cleared = await db
            .update(subscriptions)
            .set({ processedRequests: 0 })
            .where(
              and(
                eq(subscriptions.id, row.id),
                eq(subscriptions.processedRequests, row.processedRequests),
                row.lastIncrement
                  ? eq(subscriptions.lastIncrement, row.lastIncrement)
                  : sql`${subscriptions.lastIncrement} is null`,
              ),
            )
            .returning({ id: subscriptions.id });
          if (cleared.length > 0) reset++;
        }
        const status = used >= row.requestLimit ? 'exhausted' : 'active';
        if (status !== row.status) {
          const changed = await db
            .update(subscriptions)
            .set({ status })
            .where(and(eq(subscriptions.id, row.id), eq(subscriptions.status, row.status)))
            .returning({ id: subscriptions.id });
          statusChanged += changed.length;
          if (changed.length > 0) touched.add(row.appId);
        }
        for (const percent of WARNING_PERCENTS) {
          if (used * 100 < row.requestLimit * percent) continue;
          // Recorded before it is mailed: a warning is sent once per month of the term and threshold.
          const recorded = await db
            .insert(usageWarnings)
            .values({ subscriptionId: row.id, periodStart: period.start, percent })
            .onConflictDoNothing()
            .returning();
          if (recorded.length === 0) continue;
          warnings.push({
            subscriptionId: row.id,
            periodStart: period.start,
            percent,
            email,
            firstName,
            appName,
            planName: row.planName,
            used,
            limit: row.requestLimit,
            resetsAt: period.end,
          });
        }
      }
      for (const appId of touched) await changes.publish({ kind: 'app', appId });
      return { expired: expired.length, promoted: promoted.length, reset, statusChanged, warnings };
    },

    /** A warning whose mail could not be sent is forgotten, so the next run sends it. */
    async forgetWarning(warning: Pick<UsageWarning, 'subscriptionId' | 'periodStart' | 'percent'>) {
      await db
        .delete(usageWarnings)
        .where(
          and(
            eq(usageWarnings.subscriptionId, warning.subscriptionId),
            eq(usageWarnings.periodStart, warning.periodStart),
            eq(usageWarnings.percent, warning.percent),
          ),
        );
    },
  };
}

export type SubscriptionLifecycle = ReturnType<typeof createSubscriptionLifecycle>;

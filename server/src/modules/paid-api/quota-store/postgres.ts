// A PostgreSQL server without Redis: a conditional UPDATE per request, shared by every API process. The Redis
// store counts this way too while Redis is away.
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { subscriptions } from '../../../db/schema';
import { BurstWindow, type QuotaOutcome, type QuotaStore, type QuotaSubject } from './store';

/** The PostgreSQL conditional UPDATE: one statement counts or refuses, shared by every process on the database. */
export async function takeInPostgres(db: Database, subject: QuotaSubject, now: Date): Promise<QuotaOutcome> {
  const periodStart = subject.period.start.toISOString();
  const fresh = sql`(${subscriptions.lastIncrement} IS NULL OR ${subscriptions.lastIncrement} < ${periodStart}::timestamptz)`;
  const [row] = await db
    .update(subscriptions)
    .set({
      processedRequests: sql`CASE WHEN ${fresh} THEN 1 ELSE ${subscriptions.processedRequests} + 1 END`,
      lastIncrement: now,
    })
    .where(
      and(
        eq(subscriptions.id, subject.subscriptionId),
        sql`(${fresh} OR ${subscriptions.processedRequests} < ${subject.limit})`,
      ),
    )
    .returning({ used: subscriptions.processedRequests });
  return row ? { allowed: true, used: row.used } : { allowed: false, reason: 'quota', used: subject.limit };
}

export async function refundInPostgres(db: Database, subject: QuotaSubject) {
  await db
    .update(subscriptions)
    .set({ processedRequests: sql`${subscriptions.processedRequests} - 1` })
    .where(
      and(
        eq(subscriptions.id, subject.subscriptionId),
        sql`${subscriptions.processedRequests} > 0`,
        sql`${subscriptions.lastIncrement} >= ${subject.period.start.toISOString()}::timestamptz`,
      ),
    );
}

export function createPostgresQuotaStore(db: Database, burstPerSecond: number): QuotaStore {
  const burst = new BurstWindow(burstPerSecond);
  return {
    kind: 'postgres',
    async take(subject, keyHash, now, burstLimit = burstPerSecond) {
      if (!burst.allow(keyHash, now, burstLimit))
        return { allowed: false, reason: 'burst', used: subject?.processedAtLoad ?? 0 };
      if (!subject) return { allowed: true, used: 0 };
      return takeInPostgres(db, subject, now);
    },
    refund: (subject) => refundInPostgres(db, subject),
    async flush() {},
    async close() {},
  };
}

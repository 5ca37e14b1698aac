// A PostgreSQL server without Redis: a conditional UPDATE per request, shared by every API process. The Redis
// store counts this way too while Redis is away.
import type { Database } from '../../../db/client';
import { countRequest, uncountRequest } from '../../subscriptions/subscriptions.repository';
import { BurstWindow, durableCount, type QuotaOutcome, type QuotaStore, type QuotaSubject } from './store';

/** The PostgreSQL conditional UPDATE: one statement counts or refuses, shared by every process on the database. */
export async function takeInPostgres(db: Database, subject: QuotaSubject, now: Date): Promise<QuotaOutcome> {
  const { subscriptionId, limit, period } = subject;
  const used = await countRequest(db, { subscriptionId, limit, periodStart: period.start }, now);
  return used === null ? { allowed: false, reason: 'quota', used: limit } : { allowed: true, used };
}

export async function refundInPostgres(db: Database, subject: QuotaSubject) {
  await uncountRequest(db, subject.subscriptionId, subject.period.start);
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
    used: (subject) => durableCount(db, subject),
    async flush() {},
    async close() {},
  };
}

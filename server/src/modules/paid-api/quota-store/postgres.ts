// A PostgreSQL server without Redis: a conditional UPDATE per request, shared by every API process. The Redis
// store counts this way too while Redis is away.
import type { Database } from '../../../db/client';
import { countRequest, uncountRequest } from '../../subscriptions/subscriptions.repository';
import {
  answerTake,
  BurstWindow,
  durableCount,
  type QuotaOutcome,
  type QuotaStore,
  type QuotaSubject,
} from './store';

/**
 * The PostgreSQL conditional UPDATE: one statement counts or refuses, shared by every process on the database. The
 * count after it and the count change it made, or null when the month's limit refused it.
 */
export const countInPostgres = (db: Database, { subscriptionId, limit, period }: QuotaSubject, now: Date) =>
  countRequest(db, { subscriptionId, limit, periodStart: period.start }, now);

export async function takeInPostgres(db: Database, subject: QuotaSubject, now: Date): Promise<QuotaOutcome> {
  const counted = await countInPostgres(db, subject, now);
  return counted
    ? { allowed: true, used: counted.used }
    : { allowed: false, reason: 'quota', used: subject.limit };
}

/** Gives back one request: the count change it made, or null when the month had none to give back. */
export const refundInPostgres = (db: Database, subject: QuotaSubject): Promise<number | null> =>
  uncountRequest(db, subject.subscriptionId, subject.period.start);

export function createPostgresQuotaStore(db: Database, burstPerSecond: number): QuotaStore {
  const burst = new BurstWindow(burstPerSecond);
  async function take(
    subject: QuotaSubject | null,
    keyHash: string,
    now: Date,
    burstLimit = burstPerSecond,
  ): Promise<QuotaOutcome> {
    if (!burst.allow(keyHash, now, burstLimit))
      return { allowed: false, reason: 'burst', used: subject?.processedAtLoad ?? 0 };
    if (!subject) return { allowed: true, used: 0 };
    return takeInPostgres(db, subject, now);
  }
  return {
    kind: 'postgres',
    take,
    takeThen: (subject, keyHash, now, burstLimit, done) =>
      answerTake(take(subject, keyHash, now, burstLimit), done),
    async refund(subject) {
      await refundInPostgres(db, subject);
    },
    used: (subject) => durableCount(db, subject),
    async flush() {},
    async close() {},
  };
}

// The embedded database's store: only one process can open PGlite, so the counts live in this process and reach
// the subscription row on each flush.
import type { Database } from '../../../db/client';
import {
  BurstWindow,
  DirtyCounts,
  quotaKey,
  type QuotaOutcome,
  type QuotaStore,
  type QuotaSubject,
} from './store';

export function createMemoryQuotaStore(db: Database, burstPerSecond: number): QuotaStore {
  const counts = new Map<string, number>();
  const dirty = new DirtyCounts();
  const burst = new BurstWindow(burstPerSecond);
  /** Counted in this process, at once: the take has nothing to wait for. */
  function count(
    subject: QuotaSubject | null,
    keyHash: string,
    now: Date,
    burstLimit = burstPerSecond,
  ): QuotaOutcome {
    if (!subject)
      return burst.allow(keyHash, now, burstLimit)
        ? { allowed: true, used: 0 }
        : { allowed: false, reason: 'burst', used: 0 };
    const key = quotaKey('memory', subject);
    const used = counts.get(key) ?? subject.processedAtLoad;
    // A spent month is the more useful answer than a burst, so it is checked first.
    if (used >= subject.limit) return { allowed: false, reason: 'quota', used };
    if (!burst.allow(keyHash, now, burstLimit)) return { allowed: false, reason: 'burst', used };
    counts.set(key, used + 1);
    dirty.note(key, subject, used + 1, now);
    return { allowed: true, used: used + 1 };
  }
  return {
    kind: 'memory',
    take: async (subject, keyHash, now, burstLimit) => count(subject, keyHash, now, burstLimit),
    takeThen: (subject, keyHash, now, burstLimit, done) =>
      done(null, count(subject, keyHash, now, burstLimit)),
    async refund(subject) {
      const key = quotaKey('memory', subject);
      const used = counts.get(key);
      if (used !== undefined && used > 0) {
        counts.set(key, used - 1);
        dirty.note(key, subject, used - 1, new Date());
      }
    },
    used: async (subject) => counts.get(quotaKey('memory', subject)) ?? subject.processedAtLoad,
    // One process holds the embedded database, so its counts are the exact values.
    flush: () => dirty.persist(db, async (keys) => keys.map((key) => counts.get(key) ?? null)),
    async close() {},
  };
}

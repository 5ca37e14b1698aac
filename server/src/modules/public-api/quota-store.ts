// Atomic check-and-count of the monthly quota and the per-key burst limit (DESIGN §5: with N concurrent
// requests and R remaining, exactly R succeed). Three stores for three deployments:
// - Redis (REDIS_URL): one Lua call per request, shared by every API process;
// - memory (embedded PGlite, which only one process can open): counts in this process;
// - PostgreSQL without Redis: a conditional UPDATE per request, shared by every API process.
// Redis and memory counts reach the subscription row (processed_requests, last_increment) on each flush.
import { and, eq, sql } from 'drizzle-orm';
import IORedis from 'ioredis';
import type { Database } from '../../db/client';
import { subscriptions } from '../../db/schema';
import type { QuotaPeriod } from './quota-period';

export interface QuotaSubject {
  subscriptionId: string;
  limit: number;
  /** Count the database held for this period when the client was loaded. */
  processedAtLoad: number;
  period: QuotaPeriod;
}

export type QuotaOutcome =
  { allowed: true; used: number } | { allowed: false; reason: 'quota' | 'burst'; used: number };

export interface QuotaStore {
  readonly kind: 'redis' | 'memory' | 'postgres';
  /** A null subject (premium account, SPEC §6) has no monthly limit: only the burst guard applies. */
  take(subject: QuotaSubject | null, keyHash: string, now: Date): Promise<QuotaOutcome>;
  flush(): Promise<void>;
  close(): Promise<void>;
}

interface Dirty {
  subject: QuotaSubject;
  key: string;
  lastIncrement: Date;
}

const quotaKey = (prefix: string, subject: QuotaSubject) =>
  `${prefix}:quota:${subject.subscriptionId}:${subject.period.index}`;

/** Writes counts for this period, never lowering one another process wrote later. */
async function persistCounts(
  db: Database,
  counts: Array<{ subject: QuotaSubject; used: number; lastIncrement: Date }>,
) {
  for (const { subject, used, lastIncrement } of counts) {
    await db
      .update(subscriptions)
      .set({
        processedRequests: sql`CASE WHEN ${subscriptions.lastIncrement} >= ${subject.period.start.toISOString()}::timestamptz
          THEN GREATEST(${subscriptions.processedRequests}, ${used}) ELSE ${used} END`,
        lastIncrement: sql`GREATEST(COALESCE(${subscriptions.lastIncrement}, ${lastIncrement.toISOString()}::timestamptz), ${lastIncrement.toISOString()}::timestamptz)`,
      })
      .where(eq(subscriptions.id, subject.subscriptionId));
  }
}

class BurstWindow {
  private windows = new Map<string, { second: number; count: number }>();
  constructor(private readonly perSecond: number) {}
  allow(keyHash: string, now: Date): boolean {
    const second = Math.floor(now.getTime() / 1000);
    const window = this.windows.get(keyHash);
    if (!window || window.second !== second) {
      if (this.windows.size > 10_000) this.windows.clear();
      this.windows.set(keyHash, { second, count: 1 });
      return true;
    }
    return ++window.count <= this.perSecond;
  }
}

export function createMemoryQuotaStore(db: Database, burstPerSecond: number): QuotaStore {
  const counts = new Map<string, number>();
  const dirty = new Map<string, Dirty>();
  const burst = new BurstWindow(burstPerSecond);
  return {
    kind: 'memory',
    async take(subject, keyHash, now) {
      if (!subject)
        return burst.allow(keyHash, now)
          ? { allowed: true, used: 0 }
          : { allowed: false, reason: 'burst', used: 0 };
      const key = quotaKey('memory', subject);
      const used = counts.get(key) ?? subject.processedAtLoad;
      // A spent month is the more useful answer than a burst, so it is checked first.
      if (used >= subject.limit) return { allowed: false, reason: 'quota', used };
      if (!burst.allow(keyHash, now)) return { allowed: false, reason: 'burst', used };
      counts.set(key, used + 1);
      dirty.set(key, { subject, key, lastIncrement: now });
      return { allowed: true, used: used + 1 };
    },
    async flush() {
      const batch = [...dirty.values()];
      dirty.clear();
      await persistCounts(
        db,
        batch.map((d) => ({
          subject: d.subject,
          used: counts.get(d.key) ?? 0,
          lastIncrement: d.lastIncrement,
        })),
      ).catch((err: unknown) => {
        for (const d of batch) if (!dirty.has(d.key)) dirty.set(d.key, d);
        throw err;
      });
    },
    async close() {},
  };
}

// KEYS[1] burst counter, KEYS[2] monthly counter. ARGV: burst limit, monthly limit, count at load, counter TTL ms.
// Returns {1, used} when counted, {0, used} at the monthly limit, {-1, used} over the burst limit.
const TAKE_SCRIPT = `
redis.call('SET', KEYS[2], ARGV[3], 'NX', 'PX', ARGV[4])
local used = tonumber(redis.call('GET', KEYS[2]))
if used >= tonumber(ARGV[2]) then return {0, used} end
local burst = redis.call('INCR', KEYS[1])
if burst == 1 then redis.call('PEXPIRE', KEYS[1], 1000) end
if burst > tonumber(ARGV[1]) then return {-1, used} end
return {1, redis.call('INCR', KEYS[2])}
`;

// KEYS[1] burst counter. Returns the key's count in this second. For keys without a monthly limit.
const BURST_SCRIPT = `
local burst = redis.call('INCR', KEYS[1])
if burst == 1 then redis.call('PEXPIRE', KEYS[1], 1000) end
return burst
`;

type TakeCommand = (
  burstKey: string,
  quotaKey: string,
  burst: number,
  limit: number,
  initial: number,
  ttl: number,
) => Promise<[number, number]>;

export function createRedisQuotaStore(
  db: Database,
  redisUrl: string,
  prefix: string,
  burstPerSecond: number,
): QuotaStore {
  const redis = new IORedis(redisUrl, { enableOfflineQueue: true, maxRetriesPerRequest: 2 });
  redis.on('error', () => {
    // ioredis reconnects; a request during an outage fails with a 5xx through the error handler.
  });
  redis.defineCommand('afrofxTakeQuota', { numberOfKeys: 2, lua: TAKE_SCRIPT });
  redis.defineCommand('afrofxTakeBurst', { numberOfKeys: 1, lua: BURST_SCRIPT });
  const commands = redis as unknown as {
    afrofxTakeQuota: TakeCommand;
    afrofxTakeBurst: (burstKey: string) => Promise<number>;
  };
  const take = commands.afrofxTakeQuota.bind(redis);
  const dirty = new Map<string, Dirty>();
  return {
    kind: 'redis',
    async take(subject, keyHash, now) {
      const burstKey = `${prefix}:burst:${keyHash}`;
      if (!subject) {
        const burst = await commands.afrofxTakeBurst(burstKey);
        return burst > burstPerSecond
          ? { allowed: false, reason: 'burst', used: 0 }
          : { allowed: true, used: 0 };
      }
      const key = quotaKey(prefix, subject);
      const ttl = Math.max(subject.period.end.getTime() - now.getTime(), 0) + 7 * 86_400_000;
      const [code, used] = await take(
        burstKey,
        key,
        burstPerSecond,
        subject.limit,
        subject.processedAtLoad,
        ttl,
      );
      if (code === 1) {
        dirty.set(key, { subject, key, lastIncrement: now });
        return { allowed: true, used };
      }
      return { allowed: false, reason: code === -1 ? 'burst' : 'quota', used };
    },
    async flush() {
      const batch = [...dirty.values()];
      if (batch.length === 0) return;
      dirty.clear();
      try {
        const values = await redis.mget(...batch.map((d) => d.key));
        await persistCounts(
          db,
          batch.map((d, i) => ({
            subject: d.subject,
            used: Number(values[i] ?? 0),
            lastIncrement: d.lastIncrement,
          })),
        );
      } catch (err) {
        for (const d of batch) if (!dirty.has(d.key)) dirty.set(d.key, d);
        throw err;
      }
    },
    async close() {
      redis.disconnect();
    },
  };
}

export function createPostgresQuotaStore(db: Database, burstPerSecond: number): QuotaStore {
  const burst = new BurstWindow(burstPerSecond);
  return {
    kind: 'postgres',
    async take(subject, keyHash, now) {
      if (!burst.allow(keyHash, now))
        return { allowed: false, reason: 'burst', used: subject?.processedAtLoad ?? 0 };
      if (!subject) return { allowed: true, used: 0 };
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
      return row
        ? { allowed: true, used: row.used }
        : { allowed: false, reason: 'quota', used: subject.limit };
    },
    async flush() {},
    async close() {},
  };
}

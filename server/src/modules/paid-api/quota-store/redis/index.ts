// Redis (REDIS_URL): a Lua script counts each request, shared by every API process; one call carries the requests of
// an event-loop turn. While Redis is unreachable the PostgreSQL conditional UPDATE counts instead, and those counts
// are handed back to Redis when it returns.
import { setTimeout as sleep } from 'node:timers/promises';
import IORedis from 'ioredis';
import type { ChangeFeed } from '../../../../change-feed';
import type { Database } from '../../../../db/client';
import { countInPostgres, refundInPostgres } from '../postgres';
import {
  BurstWindow,
  DirtyCounts,
  durableCount,
  durableRead,
  quotaKey,
  answerTake,
  type QuotaOutcome,
  type QuotaStore,
  type QuotaSubject,
  type TakeDone,
} from '../store';
import { TakeBatches, UnansweredTake, type TakeAnswer, type TakeRecord } from './batches';
import { OutageCounts } from './outage';
import { defineQuotaScripts, type QuotaScripts } from './scripts';

export interface RedisQuotaOptions {
  db: Database;
  redisUrl: string;
  prefix: string;
  burstPerSecond: number;
  changes: ChangeFeed;
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /** How long a process that found a counter missing waits for the others to write their counts first. */
  settleMs?: number;
  /** The longest a request waits on Redis before the PostgreSQL fallback counts it. */
  commandTimeoutMs?: number;
}

/** What the store's steps share: the connection, its scripts, and the counts this process holds. */
interface RedisCounting extends Pick<RedisQuotaOptions, 'db' | 'prefix' | 'changes'> {
  settleMs: number;
  redis: IORedis;
  scripts: QuotaScripts;
  takes: TakeBatches;
  dirty: DirtyCounts;
  localBurst: BurstWindow;
  outage: OutageCounts;
  /** A counter being seeded, so that the takes that found it missing wait for one seed. */
  seeding: Map<string, Promise<void>>;
  /**
   * Since Redis went away: settled once every process has had `settleMs` to write the counts Redis answered it.
   * Counted in PostgreSQL before then, a request could be lost under another process's higher count, which its
   * write keeps (it never lowers a count) and which a counter lost with Redis's data then restarts from.
   */
  fallbackSettled?: Promise<void>;
}

function connect(options: RedisQuotaOptions): IORedis {
  // DESIGN §7: fail fast while Redis is away instead of queueing commands; the fallback below keeps serving.
  return new IORedis(options.redisUrl, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: options.commandTimeoutMs ?? 500,
    connectTimeout: 1000,
    retryStrategy: () => 200,
  });
}

/**
 * Seeds a missing counter from the durable count, never from a cached one. When Redis lost its data, every process
 * first writes what it counted (this one now, the others on the quota-flush message), so the durable count is the
 * whole count.
 */
function seed(c: RedisCounting, key: string, subject: QuotaSubject, lost: boolean): Promise<void> {
  let pending = c.seeding.get(key);
  if (!pending) {
    pending = (async () => {
      await c.dirty.persist(c.db);
      if (lost) {
        await c.changes.publish({ kind: 'quota-flush' }).catch(() => undefined);
        await sleep(c.settleMs);
      }
      await c.scripts.seed(key, subject, await durableRead(c.db, subject));
    })().finally(() => c.seeding.delete(key));
    c.seeding.set(key, pending);
  }
  return pending;
}

/** The per-second counter of a key's calls, which every API process shares. */
const burstKeyOf = (prefix: string, keyHash: string) => `${prefix}:burst:${keyHash}`;

/** What a counter's answer means for the take: its outcome, or undefined when the counter must be seeded first. */
function outcomeOf(
  c: RedisCounting,
  key: string,
  subject: QuotaSubject,
  now: Date,
  { outcome, used }: TakeAnswer,
): QuotaOutcome | undefined {
  switch (outcome) {
    case 'counted':
      c.dirty.note(key, subject, used, now);
      return { allowed: true, used };
    case 'quota':
    case 'burst':
      return { allowed: false, reason: outcome, used };
    case 'missing':
    case 'lost':
    case 'unreadable':
      return undefined;
  }
}

/** The take in Redis, from its first answer when the turn's call already gave one. */
async function takeInRedis(
  c: RedisCounting,
  subject: QuotaSubject,
  keyHash: string,
  now: Date,
  burstLimit: number,
  first?: TakeAnswer,
): Promise<QuotaOutcome> {
  const key = quotaKey(c.prefix, subject);
  const burstKey = burstKeyOf(c.prefix, keyHash);
  for (let attempt = 0; ; attempt++) {
    const answer =
      attempt === 0 && first ? first : await c.takes.takeAsync(burstKey, key, burstLimit, subject.limit);
    const outcome = outcomeOf(c, key, subject, now, answer);
    if (outcome) return outcome;
    // Seeded from the durable count, then taken again.
    if (attempt > 0) throw new Error('quota counter could not be seeded');
    await seed(c, key, subject, answer.outcome === 'lost');
  }
}

async function takeInFallback(
  c: RedisCounting,
  subject: QuotaSubject,
  keyHash: string,
  now: Date,
  burstLimit: number,
  unanswered?: TakeRecord,
): Promise<QuotaOutcome> {
  if (!c.localBurst.allow(keyHash, now, burstLimit))
    return { allowed: false, reason: 'burst', used: subject.processedAtLoad };
  await c.fallbackSettled;
  await c.dirty.persist(c.db);
  const counted = await countInPostgres(c.db, subject, now);
  if (!counted) return { allowed: false, reason: 'quota', used: subject.limit };
  c.outage.note(quotaKey(c.prefix, subject), subject, counted.change, unanswered);
  return { allowed: true, used: counted.used };
}

/** A premium account has no monthly counter: the burst counter alone, in Redis or else in this process. */
async function takeBurst(
  c: RedisCounting,
  keyHash: string,
  now: Date,
  burstLimit: number,
): Promise<QuotaOutcome> {
  if (c.redis.status === 'ready') {
    try {
      const burstKey = burstKeyOf(c.prefix, keyHash);
      // No monthly counter: the script reads none, so the burst counter stands in for its name.
      const { outcome } = await c.takes.takeAsync(burstKey, burstKey, burstLimit, -1);
      return outcome === 'burst' ? { allowed: false, reason: 'burst', used: 0 } : { allowed: true, used: 0 };
    } catch {
      // Falls through to the in-process guard.
    }
  }
  return c.localBurst.allow(keyHash, now, burstLimit)
    ? { allowed: true, used: 0 }
    : { allowed: false, reason: 'burst', used: 0 };
}

/** Counting in Redis: it answers, and no counts of an outage wait to be handed back. */
const redisUsable = (c: RedisCounting) =>
  c.redis.status === 'ready' && !c.outage.reconciling && !c.outage.pending;

export function createRedisQuotaStore(options: RedisQuotaOptions): QuotaStore {
  const { db, prefix, burstPerSecond, changes, log } = options;
  const redis = connect(options);
  const scripts = defineQuotaScripts(redis, prefix);
  const c: RedisCounting = {
    db,
    prefix,
    changes,
    settleMs: options.settleMs ?? 250,
    redis,
    scripts,
    takes: new TakeBatches(scripts),
    dirty: new DirtyCounts(),
    localBurst: new BurstWindow(burstPerSecond),
    outage: new OutageCounts(db, redis, scripts, log),
    seeding: new Map(),
  };
  let closed = false;

  const persistDirty = () =>
    c.dirty.persist(db).catch((err: unknown) => log.error({ err }, 'quota counts not written; will retry'));

  redis.on('error', () => {
    // ioredis reconnects by itself; meanwhile takes fall back to PostgreSQL.
  });
  // Counts only this process has seen go to PostgreSQL at once, so the fallback starts from them; the other
  // processes write theirs on their own 'close' at the same moment, and the fallback waits for them.
  redis.on('close', () => {
    if (closed) return;
    const written = persistDirty();
    c.fallbackSettled ??= written.then(() => sleep(c.settleMs));
  });
  redis.on('ready', () => {
    c.fallbackSettled = undefined;
    if (c.outage.pending) void c.outage.reconcile();
  });
  // Another process found a counter missing: write what this one counted before it seeds from the database.
  changes.subscribe((change) => {
    if (change.kind === 'quota-flush') void persistDirty();
  });

  /** The take, from the turn's first answer when there was one (an error: the call was not answered). */
  async function take(
    subject: QuotaSubject | null,
    keyHash: string,
    now: Date,
    burstLimit = burstPerSecond,
    first?: { err: unknown; answer?: TakeAnswer },
  ): Promise<QuotaOutcome> {
    if (!subject) return takeBurst(c, keyHash, now, burstLimit);
    // Back from an outage: the counts handed back first, then this take in Redis. Not waiting left each take of a
    // steady trickle in PostgreSQL while it started the hand-back for the one before.
    if (!first && redis.status === 'ready' && c.outage.pending) await c.outage.reconcile();
    if (first || redisUsable(c)) {
      try {
        if (first?.err) throw first.err;
        return await takeInRedis(c, subject, keyHash, now, burstLimit, first?.answer);
      } catch (err) {
        log.warn({ err }, 'redis quota count failed; counting in PostgreSQL');
        if (err instanceof UnansweredTake)
          return takeInFallback(c, subject, keyHash, now, burstLimit, err.record);
      }
    }
    return takeInFallback(c, subject, keyHash, now, burstLimit);
  }

  /**
   * A counted or refused take is answered from the turn's call with no promise of its own; a counter to seed, a call
   * not answered or an outage go the way of `take`.
   */
  function takeThen(
    subject: QuotaSubject | null,
    keyHash: string,
    now: Date,
    burstLimit: number | undefined,
    done: TakeDone,
  ) {
    if (!subject || !redisUsable(c)) return answerTake(take(subject, keyHash, now, burstLimit), done);
    const key = quotaKey(prefix, subject);
    const limit = burstLimit ?? burstPerSecond;
    c.takes.take(burstKeyOf(prefix, keyHash), key, limit, subject.limit, (err, answer) => {
      const outcome = answer && outcomeOf(c, key, subject, now, answer);
      if (outcome) done(null, outcome);
      else answerTake(take(subject, keyHash, now, limit, { err, answer }), done);
    });
  }

  return {
    kind: 'redis',
    take: (subject, keyHash, now, burstLimit) => take(subject, keyHash, now, burstLimit),
    takeThen,
    async refund(subject) {
      const key = quotaKey(prefix, subject);
      if (c.outage.holds(key)) {
        const change = await refundInPostgres(db, subject);
        if (change !== null) c.outage.note(key, subject, -change);
        return;
      }
      const used = await scripts.refund(key);
      c.dirty.note(key, subject, used, new Date());
    },
    async used(subject) {
      // Away, or counting in PostgreSQL since an outage: the subscription row is the count every process shares.
      if (!redisUsable(c)) return durableCount(db, subject);
      const counted = await redis.get(quotaKey(prefix, subject)).catch(() => null);
      const used = counted === null ? NaN : Number(counted);
      return Number.isInteger(used) ? used : durableCount(db, subject);
    },
    flush: () => c.dirty.persist(db),
    async close() {
      closed = true;
      redis.disconnect();
    },
  };
}

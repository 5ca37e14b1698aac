// Redis (REDIS_URL): a Lua script counts each request, shared by every API process; one call carries the requests of
// an event-loop turn. While Redis is unreachable the PostgreSQL conditional UPDATE counts instead, and those counts
// are handed back to Redis when it returns.
import { randomUUID } from 'node:crypto';
import IORedis from 'ioredis';
import type { ChangeFeed } from '../../../change-feed';
import type { Database } from '../../../db/client';
import { refundInPostgres, takeInPostgres } from './postgres';
import {
  BurstWindow,
  DirtyCounts,
  durableCount,
  quotaKey,
  type QuotaOutcome,
  type QuotaStore,
  type QuotaSubject,
} from './store';

// KEYS[1] a marker that lives as long as Redis keeps its data, then a burst counter and a monthly counter per take.
// ARGV[1] the burst limit, then the monthly limit per take (-1: none, the burst counter only). Counts the takes one
// after another and returns two numbers per take, in order: {1, used} when counted, {0, used} at the monthly limit,
// {-1, used} over the burst limit. A missing monthly counter is {-2, 0} on its first use and {-3, 0} when the marker
// is gone too (Redis lost its data): the caller seeds it from the durable count. A take whose keys cannot be read
// (another type of value at a counter's name) is {-4, 0} and counts nothing, so the other takes of the call stand;
// the script deletes the unreadable keys, and the caller seeds the counter again like a missing one.
// Issue 21 (item 8): a counter's name holding another type of value (or a string that is not a number) is deleted,
// so that the counter is seeded again from the durable count instead of failing every take until someone repairs it.
const REPAIR_LUA = `
local function repair(key)
  local kind = redis.call('TYPE', key).ok
  if kind ~= 'none' and (kind ~= 'string' or not tonumber(redis.call('GET', key))) then redis.call('DEL', key) end
end
`;

// The last key names the call's record: the codes of its takes, kept an hour, so that the requests of a call that
// timed out here (and were counted in PostgreSQL) but ran in Redis later are not counted twice (issue 21, item 8).
const TAKE_SCRIPT = `${REPAIR_LUA}
local burstLimit = tonumber(ARGV[1])
local markerKept = nil
local function take(burstKey, quotaKey, limit)
  local current = '0'
  if limit ~= -1 then current = redis.call('GET', quotaKey) end
  if not current then
    if markerKept == nil then markerKept = redis.call('EXISTS', KEYS[1]) == 1 end
    return markerKept and -2 or -3, 0
  end
  local used = tonumber(current)
  if limit ~= -1 and used >= limit then return 0, used end
  local burst = redis.call('INCR', burstKey)
  if burst == 1 then redis.call('PEXPIRE', burstKey, 1000) end
  if burst > burstLimit then return -1, used end
  if limit ~= -1 then used = redis.call('INCR', quotaKey) end
  return 1, used
end
local outcomes = {}
for i = 1, #ARGV - 1 do
  local ok, code, used = pcall(take, KEYS[2 * i], KEYS[2 * i + 1], tonumber(ARGV[i + 1]))
  if not ok then
    code, used = -4, 0
    pcall(repair, KEYS[2 * i])
    pcall(repair, KEYS[2 * i + 1])
  end
  outcomes[2 * i - 1] = code
  outcomes[2 * i] = used
end
local codes = {}
for i = 1, #outcomes, 2 do codes[#codes + 1] = outcomes[i] end
redis.call('SET', KEYS[#KEYS], table.concat(codes, ','), 'PX', 3600000)
return outcomes
`;

// KEYS[1] monthly counter, KEYS[2] the data marker. ARGV: floor, counter TTL ms. Raises the counter to at least the
// floor, never lowers it.
const SEED_SCRIPT = `${REPAIR_LUA}
repair(KEYS[1])
local used = tonumber(redis.call('GET', KEYS[1]) or '-1')
if used < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) end
redis.call('SET', KEYS[2], '1')
return 1
`;

// KEYS[1] monthly counter, KEYS[2] the data marker. ARGV: requests counted in PostgreSQL during an outage, the
// durable count, TTL ms. A counter that survived the outage gets the outage's requests added; a lost one restarts
// from the durable count, which already holds them.
const RECONCILE_SCRIPT = `${REPAIR_LUA}
repair(KEYS[1])
if redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('INCRBY', KEYS[1], ARGV[1])
else
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
end
redis.call('SET', KEYS[2], '1')
return 1
`;

// KEYS[1] monthly counter. Gives back one request, never below zero.
const REFUND_SCRIPT = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
if used > 0 then return redis.call('DECR', KEYS[1]) end
return used
`;

interface RedisQuotaCommands {
  afrofxTakeQuota(numberOfKeys: number, ...keysThenArgs: Array<string | number>): Promise<number[]>;
  afrofxSeedQuota(quotaKey: string, marker: string, floor: number, ttl: number): Promise<number>;
  afrofxReconcileQuota(
    quotaKey: string,
    marker: string,
    outage: number,
    durable: number,
    ttl: number,
  ): Promise<number>;
  afrofxRefundQuota(quotaKey: string): Promise<number>;
}

/** The most takes one script call carries, so that a call never holds Redis up for long. */
const MAX_TAKES_PER_CALL = 500;

/**
 * The takes asked for in one turn of the event loop, sent to Redis as one call of the take script. A call per take
 * cost the API process a command, a timer and a socket write on every request, and Redis a script run: under load the
 * most the paid path spent beyond bare Fastify on `npm run bench` (issue 10, point 7). The script counts the takes one
 * after another, so with N concurrent requests and R remaining exactly R still succeed. A call that fails (Redis away
 * or stalled) fails each of its takes: the caller then counts them in PostgreSQL, as when each had a call of its own.
 */
class TakeBatches {
  private keys: string[] = [];
  private limits: number[] = [];
  private waiting: Array<{ resolve(outcome: [number, number]): void; reject(err: unknown): void }> = [];
  private scheduled = false;

  constructor(
    private readonly marker: string,
    private readonly burstPerSecond: number,
    private readonly commands: RedisQuotaCommands,
  ) {}

  /** `limit` -1 is a key without a monthly limit (a premium account): its burst counter only. */
  take(burstKey: string, quotaKey: string, limit: number): Promise<[number, number]> {
    return new Promise((resolve, reject) => {
      this.keys.push(burstKey, quotaKey);
      this.limits.push(limit);
      this.waiting.push({ resolve, reject });
      if (this.waiting.length >= MAX_TAKES_PER_CALL) this.send();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.send();
        });
      }
    });
  }

  private send() {
    const { keys, limits, waiting } = this;
    if (waiting.length === 0) return;
    this.keys = [];
    this.limits = [];
    this.waiting = [];
    const call = `${this.marker}:call:${randomUUID()}`;
    this.commands
      .afrofxTakeQuota(keys.length + 2, this.marker, ...keys, call, this.burstPerSecond, ...limits)
      .then(
        (outcomes) => waiting.forEach((take, i) => take.resolve([outcomes[2 * i]!, outcomes[2 * i + 1]!])),
        (err: unknown) =>
          waiting.forEach((take, i) => take.reject(new UnansweredTake(err, { call, index: i }))),
      );
  }
}

/** Where a take that got no answer can be looked up later: the call's record and the take's place in it. */
interface TakeRecord {
  call: string;
  index: number;
}

/** A take whose call got no answer (Redis away or stalled): it may still have run, or run later. */
class UnansweredTake extends Error {
  constructor(
    cause: unknown,
    readonly record: TakeRecord,
  ) {
    super('redis did not answer the take', { cause });
  }
}

/**
 * Of the takes counted in PostgreSQL after their Redis call got no answer, how many Redis counted too (their call ran
 * after all, e.g. when a stall ended): those are in the Redis counter already and must not be handed to it again.
 */
async function countedInRedisToo(redis: IORedis, records: TakeRecord[]): Promise<number> {
  if (records.length === 0) return 0;
  const calls = [...new Set(records.map((r) => r.call))];
  const codes = new Map(
    (await redis.mget(...calls)).map((value, i) => [calls[i]!, value?.split(',') ?? []] as const),
  );
  return records.filter((r) => codes.get(r.call)?.[r.index] === '1').length;
}

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

export function createRedisQuotaStore(options: RedisQuotaOptions): QuotaStore {
  const { db, prefix, burstPerSecond, changes, log } = options;
  const settleMs = options.settleMs ?? 250;
  // DESIGN §7: fail fast while Redis is away instead of queueing commands; the fallback below keeps serving.
  const redis = new IORedis(options.redisUrl, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: options.commandTimeoutMs ?? 500,
    connectTimeout: 1000,
    retryStrategy: () => 200,
  });
  redis.defineCommand('afrofxTakeQuota', { lua: TAKE_SCRIPT });
  redis.defineCommand('afrofxSeedQuota', { numberOfKeys: 2, lua: SEED_SCRIPT });
  redis.defineCommand('afrofxReconcileQuota', { numberOfKeys: 2, lua: RECONCILE_SCRIPT });
  redis.defineCommand('afrofxRefundQuota', { numberOfKeys: 1, lua: REFUND_SCRIPT });
  const commands = redis as unknown as RedisQuotaCommands;

  const dirty = new DirtyCounts();
  const localBurst = new BurstWindow(burstPerSecond);
  /**
   * Requests counted in PostgreSQL while Redis was away, per counter: handed to Redis when it returns. `unanswered`
   * are those whose Redis call got no answer and may have run there too.
   */
  const outageCounts = new Map<string, { subject: QuotaSubject; count: number; unanswered: TakeRecord[] }>();
  const seeding = new Map<string, Promise<void>>();
  const marker = `${prefix}:quota:marker`;
  const takes = new TakeBatches(marker, burstPerSecond, commands);
  let reconciling: Promise<void> | undefined;
  let closed = false;

  const ttlFor = (subject: QuotaSubject, now: number) =>
    Math.max(subject.period.end.getTime() - now, 0) + 7 * 86_400_000;
  const persistDirty = () =>
    dirty.persist(db).catch((err: unknown) => log.error({ err }, 'quota counts not written; will retry'));

  redis.on('error', () => {
    // ioredis reconnects by itself; meanwhile takes fall back to PostgreSQL.
  });
  // Counts only this process has seen go to PostgreSQL at once, so the fallback starts from them.
  redis.on('close', () => {
    if (!closed) void persistDirty();
  });
  redis.on('ready', () => {
    if (outageCounts.size > 0) void reconcile();
  });
  // Another process found a counter missing: write what this one counted before it seeds from the database.
  changes.subscribe((change) => {
    if (change.kind === 'quota-flush') void persistDirty();
  });

  /** Hands the requests counted in PostgreSQL during an outage back to Redis. */
  function reconcile(): Promise<void> {
    reconciling ??= (async () => {
      try {
        for (const [key, { subject, count, unanswered }] of outageCounts) {
          const durable = await durableCount(db, subject);
          const twice = await countedInRedisToo(redis, unanswered);
          await commands.afrofxReconcileQuota(
            key,
            marker,
            count - twice,
            durable,
            ttlFor(subject, Date.now()),
          );
          outageCounts.delete(key);
        }
      } catch (err) {
        log.warn({ err }, 'quota reconcile with redis failed; counting in PostgreSQL until it succeeds');
      } finally {
        reconciling = undefined;
      }
    })();
    return reconciling;
  }

  /**
   * Seeds a missing counter from the durable count, never from a cached one. When Redis lost its data, every process
   * first writes what it counted (this one now, the others on the quota-flush message), so the durable count is the
   * whole count.
   */
  function seed(key: string, subject: QuotaSubject, lost: boolean): Promise<void> {
    let pending = seeding.get(key);
    if (!pending) {
      pending = (async () => {
        await dirty.persist(db);
        if (lost) {
          await changes.publish({ kind: 'quota-flush' }).catch(() => undefined);
          await new Promise((resolve) => setTimeout(resolve, settleMs));
        }
        const durable = await durableCount(db, subject);
        await commands.afrofxSeedQuota(key, marker, durable, ttlFor(subject, Date.now()));
      })().finally(() => seeding.delete(key));
      seeding.set(key, pending);
    }
    return pending;
  }

  async function takeInRedis(subject: QuotaSubject, keyHash: string, now: Date): Promise<QuotaOutcome> {
    const key = quotaKey(prefix, subject);
    const burstKey = `${prefix}:burst:${keyHash}`;
    for (let attempt = 0; ; attempt++) {
      const [code, used] = await takes.take(burstKey, key, subject.limit);
      // Missing (-2, -3) or unreadable and just deleted (-4): seeded from the durable count, then taken again.
      if (code <= -2 && attempt === 0) {
        await seed(key, subject, code === -3);
        continue;
      }
      if (code <= -2) throw new Error('quota counter could not be seeded');
      if (code === 1) {
        dirty.note(key, subject, used, now);
        return { allowed: true, used };
      }
      return { allowed: false, reason: code === -1 ? 'burst' : 'quota', used };
    }
  }

  async function takeInFallback(
    subject: QuotaSubject,
    keyHash: string,
    now: Date,
    unanswered?: TakeRecord,
  ): Promise<QuotaOutcome> {
    if (!localBurst.allow(keyHash, now))
      return { allowed: false, reason: 'burst', used: subject.processedAtLoad };
    await dirty.persist(db);
    const outcome = await takeInPostgres(db, subject, now);
    if (outcome.allowed) {
      const key = quotaKey(prefix, subject);
      const entry = outageCounts.get(key) ?? { subject, count: 0, unanswered: [] };
      entry.count++;
      if (unanswered) entry.unanswered.push(unanswered);
      outageCounts.set(key, entry);
    }
    return outcome;
  }

  const redisUsable = () => redis.status === 'ready' && !reconciling && outageCounts.size === 0;

  return {
    kind: 'redis',
    async take(subject, keyHash, now) {
      if (!subject) {
        if (redis.status === 'ready') {
          try {
            const burstKey = `${prefix}:burst:${keyHash}`;
            // No monthly counter: the script reads none, so the burst counter stands in for its name.
            const [code] = await takes.take(burstKey, burstKey, -1);
            return code === -1 ? { allowed: false, reason: 'burst', used: 0 } : { allowed: true, used: 0 };
          } catch {
            // Falls through to the in-process guard.
          }
        }
        return localBurst.allow(keyHash, now)
          ? { allowed: true, used: 0 }
          : { allowed: false, reason: 'burst', used: 0 };
      }
      // Back from an outage: the counts handed back first, then this take in Redis. Not waiting left each take of a
      // steady trickle in PostgreSQL while it started the hand-back for the one before (issue 21, item 8).
      if (redis.status === 'ready' && outageCounts.size > 0) await reconcile();
      if (redisUsable()) {
        try {
          return await takeInRedis(subject, keyHash, now);
        } catch (err) {
          log.warn({ err }, 'redis quota count failed; counting in PostgreSQL');
          if (err instanceof UnansweredTake) return takeInFallback(subject, keyHash, now, err.record);
        }
      }
      return takeInFallback(subject, keyHash, now);
    },
    async refund(subject) {
      const key = quotaKey(prefix, subject);
      const outage = outageCounts.get(key);
      if (outage && outage.count > 0) {
        outage.count--;
        return refundInPostgres(db, subject);
      }
      const used = await commands.afrofxRefundQuota(key);
      dirty.note(key, subject, used, new Date());
    },
    flush: () => dirty.persist(db),
    async close() {
      closed = true;
      redis.disconnect();
    },
  };
}

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

// KEYS[1] a marker that lives as long as Redis keeps its data, then a burst counter and a monthly counter per entry,
// then the call's record. ARGV: per entry its burst limit, its monthly limit (-1: none, the burst counter only) and
// how many requests of one key it carries. The requests of an entry are counted as if one after another, so with N
// concurrent requests and R remaining exactly R are counted, but with two counter updates per entry rather than per
// request. Returns three numbers per entry, in order: how many were counted, what refused the rest (0 the monthly
// limit, -1 the burst limit) and the count after. A missing monthly counter is {-2, 0, 0} on its first use and
// {-3, 0, 0} when the marker is gone too (Redis lost its data): the caller seeds it from the durable count. An entry
// whose keys cannot be read (another type of value at a counter's name) is {-4, 0, 0} and counts nothing, so the
// other entries stand; the script deletes the unreadable keys, and the caller seeds the counter again like a
// missing one.
// Issue 21 (item 8): a counter's name holding another type of value (or a string that is not a number) is deleted,
// so that the counter is seeded again from the durable count instead of failing every take until someone repairs it.
const REPAIR_LUA = `
local function repair(key)
  local kind = redis.call('TYPE', key).ok
  if kind ~= 'none' and (kind ~= 'string' or not tonumber(redis.call('GET', key))) then redis.call('DEL', key) end
end
`;

// The last key names the call's record: how many of each entry's requests were counted, kept an hour, so that the
// requests of a call that timed out here (and were counted in PostgreSQL) but ran in Redis later are not counted
// twice (issue 21, item 8).
const TAKE_SCRIPT = `${REPAIR_LUA}
local markerKept = nil
local function take(burstKey, quotaKey, burstLimit, limit, n)
  local current = '0'
  if limit ~= -1 then current = redis.call('GET', quotaKey) end
  if not current then
    if markerKept == nil then markerKept = redis.call('EXISTS', KEYS[1]) == 1 end
    return markerKept and -2 or -3, 0, 0
  end
  local used = tonumber(current)
  local monthRoom = n
  if limit ~= -1 then monthRoom = math.max(limit - used, 0) end
  local burstBefore = tonumber(redis.call('GET', burstKey) or '0')
  local burstRoom = math.max(burstLimit - burstBefore, 0)
  local counted = math.min(n, monthRoom, burstRoom)
  -- One by one, a request at the monthly limit is refused before it touches the burst counter; one over the burst
  -- limit has counted against it.
  local refusedBy, burstAdded = 0, counted
  if counted < n and burstRoom < monthRoom then refusedBy, burstAdded = -1, n end
  if burstAdded > 0 then
    local burst = redis.call('INCRBY', burstKey, burstAdded)
    if burst == burstAdded then redis.call('PEXPIRE', burstKey, 1000) end
  end
  if limit ~= -1 and counted > 0 then used = redis.call('INCRBY', quotaKey, counted) end
  return refusedBy, counted, used
end
local outcomes, counts = {}, {}
for i = 1, (#KEYS - 2) / 2 do
  local ok, refusedBy, counted, used = pcall(take, KEYS[2 * i], KEYS[2 * i + 1],
    tonumber(ARGV[3 * i - 2]), tonumber(ARGV[3 * i - 1]), tonumber(ARGV[3 * i]))
  if not ok then
    refusedBy, counted, used = -4, 0, 0
    pcall(repair, KEYS[2 * i])
    pcall(repair, KEYS[2 * i + 1])
  end
  outcomes[#outcomes + 1] = refusedBy
  outcomes[#outcomes + 1] = counted
  outcomes[#outcomes + 1] = used
  counts[i] = counted
end
redis.call('SET', KEYS[#KEYS], table.concat(counts, ','), 'PX', 3600000)
return outcomes
`;

// KEYS[1] monthly counter, KEYS[2] the data marker, KEYS[3] the counter's restart record. ARGV: floor (the durable
// count), counter TTL ms, restart record TTL ms. Raises the counter to at least the floor, never lowers it; a raised
// counter holds every request PostgreSQL had counted, and its record says up to which count.
const SEED_SCRIPT = `${REPAIR_LUA}
repair(KEYS[1])
local used = tonumber(redis.call('GET', KEYS[1]) or '-1')
if used < tonumber(ARGV[1]) then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  redis.call('SET', KEYS[3], ARGV[1], 'PX', ARGV[3])
end
redis.call('SET', KEYS[2], '1')
return 1
`;

// KEYS[1] monthly counter, KEYS[2] the data marker, KEYS[3] the hand-back's record, KEYS[4] the counter's restart
// record. ARGV: requests counted in PostgreSQL during an outage, less those refunded and those Redis counted too
// (below zero when more were refunded than counted since the last hand-back), the durable count, counter TTL ms,
// restart record TTL ms, and the counts PostgreSQL reached with each request taken, comma-separated (one argument:
// a long outage lists more than a call can spread).
// A counter that survived the outage gets the outage's requests added (1); a lost one restarts from the durable
// count, which already holds them (2). A counter that another process restarted from the durable count meanwhile
// (Redis lost its data while several processes counted in PostgreSQL) already holds the requests up to the count it
// restarted from: only those above it are added.
// A hand-back is applied once: sent again after its answer was lost (a timeout on a busy machine), it changes nothing
// and answers how it was applied the first time, kept as long as the counter.
export const RECONCILE_SCRIPT = `${REPAIR_LUA}
local done = redis.call('GET', KEYS[3])
if done then return tonumber(done) end
repair(KEYS[1])
local applied = 1
if redis.call('EXISTS', KEYS[1]) == 1 then
  local add = tonumber(ARGV[1])
  local restarted = tonumber(redis.call('GET', KEYS[4]) or '')
  if restarted then
    -- The requests listed are in the count; of them only those above the restart are added.
    for reached in string.gmatch(ARGV[5], '[^,]+') do
      add = add - 1
      if tonumber(reached) > restarted then add = add + 1 end
    end
  end
  redis.call('INCRBY', KEYS[1], add)
else
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
  redis.call('SET', KEYS[4], ARGV[2], 'PX', ARGV[4])
  applied = 2
end
redis.call('SET', KEYS[3], applied, 'PX', ARGV[3])
redis.call('SET', KEYS[2], '1')
return applied
`;

// KEYS[1] monthly counter. Gives back one request, never below zero.
const REFUND_SCRIPT = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
if used > 0 then return redis.call('DECR', KEYS[1]) end
return used
`;

interface RedisQuotaCommands {
  afrofxTakeQuota(numberOfKeys: number, ...keysThenArgs: Array<string | number>): Promise<number[]>;
  afrofxSeedQuota(
    quotaKey: string,
    marker: string,
    restartKey: string,
    floor: number,
    ttl: number,
    restartTtl: number,
  ): Promise<number>;
  afrofxReconcileQuota(
    quotaKey: string,
    marker: string,
    handBack: string,
    restartKey: string,
    outage: number,
    durable: number,
    ttl: number,
    restartTtl: number,
    reached: string,
  ): Promise<number>;
  afrofxRefundQuota(quotaKey: string): Promise<number>;
}

/** The most entries one script call carries, so that a call never holds Redis up for long. */
const MAX_ENTRIES_PER_CALL = 500;

/**
 * How long a counter restarted from the durable count keeps the record of that count: the processes that counted in
 * PostgreSQL meanwhile hand their counts back as soon as Redis answers them, within seconds. Not kept for the
 * counter's life: refunds can take the durable count below it later, and a later outage's requests would be missed.
 */
const RESTART_RECORD_MS = 10 * 60_000;

/** The requests of one key and counter in a call: counted together, answered in the order they came. */
interface TakeEntry {
  burstKey: string;
  quotaKey: string;
  burstLimit: number;
  limit: number;
  waiting: Array<{ resolve(outcome: [number, number]): void; reject(err: unknown): void }>;
}

/**
 * The takes asked for in one turn of the event loop, sent to Redis as one call of the take script, the requests of
 * one key folded into one entry. A call per take cost the API process a command, a timer and a socket write on every
 * request, and Redis a script run; a call with an entry per request still cost both a line of command and four
 * counter updates per request (folded, Redis's CPU per answer of one busy key halved, issue 24). The script counts an
 * entry's requests as one after another, so with N concurrent requests and R remaining exactly R still succeed. A
 * call that fails (Redis away or stalled) fails each of its takes: the caller then counts them in PostgreSQL, as when
 * each had a call of its own.
 */
class TakeBatches {
  private entries = new Map<string, TakeEntry>();
  private scheduled = false;

  constructor(
    private readonly marker: string,
    private readonly commands: RedisQuotaCommands,
  ) {}

  /** `limit` -1 is a key without a monthly limit (a premium account): its burst counter only. */
  take(burstKey: string, quotaKey: string, burstLimit: number, limit: number): Promise<[number, number]> {
    return new Promise((resolve, reject) => {
      const name = `${burstKey} ${quotaKey} ${burstLimit} ${limit}`;
      let entry = this.entries.get(name);
      if (!entry) {
        entry = { burstKey, quotaKey, burstLimit, limit, waiting: [] };
        this.entries.set(name, entry);
      }
      entry.waiting.push({ resolve, reject });
      if (this.entries.size >= MAX_ENTRIES_PER_CALL) this.send();
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
    const entries = [...this.entries.values()];
    if (entries.length === 0) return;
    this.entries = new Map();
    const keys: string[] = [];
    const args: number[] = [];
    for (const entry of entries) {
      keys.push(entry.burstKey, entry.quotaKey);
      args.push(entry.burstLimit, entry.limit, entry.waiting.length);
    }
    const call = `${this.marker}:call:${randomUUID()}`;
    this.commands.afrofxTakeQuota(keys.length + 2, this.marker, ...keys, call, ...args).then(
      (outcomes) =>
        entries.forEach(({ waiting }, i) => {
          const [refusedBy, counted, used] = outcomes.slice(3 * i, 3 * i + 3) as [number, number, number];
          // The counted requests saw the count rise one by one; the rest saw where it stopped.
          waiting.forEach((take, position) =>
            take.resolve(position < counted ? [1, used - counted + position + 1] : [refusedBy, used]),
          );
        }),
      (err: unknown) =>
        entries.forEach(({ waiting }, index) =>
          waiting.forEach((take, position) =>
            take.reject(new UnansweredTake(err, { call, index, position })),
          ),
        ),
    );
  }
}

/** Where a take that got no answer can be looked up later: the call's record, its entry and its place there. */
interface TakeRecord {
  call: string;
  index: number;
  position: number;
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
  const counts = new Map(
    (await redis.mget(...calls)).map((value, i) => [calls[i]!, value?.split(',').map(Number) ?? []] as const),
  );
  return records.filter((r) => r.position < (counts.get(r.call)?.[r.index] ?? 0)).length;
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
  redis.defineCommand('afrofxSeedQuota', { numberOfKeys: 3, lua: SEED_SCRIPT });
  redis.defineCommand('afrofxReconcileQuota', { numberOfKeys: 4, lua: RECONCILE_SCRIPT });
  redis.defineCommand('afrofxRefundQuota', { numberOfKeys: 1, lua: REFUND_SCRIPT });
  const commands = redis as unknown as RedisQuotaCommands;

  const dirty = new DirtyCounts();
  const localBurst = new BurstWindow(burstPerSecond);
  /**
   * Requests counted in PostgreSQL while Redis was away, per counter: handed to Redis when it returns. `unanswered`
   * are those whose Redis call got no answer and may have run there too.
   */
  const outageCounts = new Map<
    string,
    {
      subject: QuotaSubject;
      count: number;
      unanswered: TakeRecord[];
      /**
       * The count PostgreSQL reached with each request taken (refunded or not): which ones a durable count read at
       * some moment holds. `reached.length - count` of them were refunded.
       */
      reached: number[];
      /**
       * A hand-back sent whose answer did not come: sent again as it was, under its id, with the durable count read
       * for it (a first send that restarted the counter from that count is answered as such). It holds the first
       * `listed` of `reached` and the first `records` of `unanswered`, as they stood at that read.
       */
      handBack?: { id: string; count: number; listed: number; records: number; durable: number };
    }
  >();
  const seeding = new Map<string, Promise<void>>();
  const marker = `${prefix}:quota:marker`;
  const takes = new TakeBatches(marker, commands);
  let reconciling: Promise<void> | undefined;
  let closed = false;

  const restartKey = (subject: QuotaSubject) =>
    `${prefix}:quota-restart:${subject.subscriptionId}:${subject.period.index}`;
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
        for (const [key, outage] of outageCounts) {
          // What was counted until now: takes counted in PostgreSQL while this runs stay for the next hand-back
          // (forgetting them with the entry left them out of Redis for good).
          if (!outage.handBack) {
            const durable = await durableCount(db, outage.subject);
            outage.handBack = {
              id: randomUUID(),
              count: outage.count,
              listed: outage.reached.length,
              records: outage.unanswered.length,
              durable,
            };
          }
          const { handBack } = outage;
          const twice = await countedInRedisToo(redis, outage.unanswered.slice(0, handBack.records));
          const applied = await commands.afrofxReconcileQuota(
            key,
            marker,
            `${marker}:hand-back:${handBack.id}`,
            restartKey(outage.subject),
            handBack.count - twice,
            handBack.durable,
            ttlFor(outage.subject, Date.now()),
            RESTART_RECORD_MS,
            outage.reached.slice(0, handBack.listed).join(','),
          );
          outage.handBack = undefined;
          // Calls noted since the hand-back was made are checked with the next one.
          outage.unanswered.splice(0, handBack.records);
          if (applied === 2) {
            // Restarted from the durable count, which holds every request PostgreSQL had counted when it was read
            // (counts up to `durable`), however many of them this process had noted by then, and the refunds made
            // before the read: the requests counted since, less the refunds made since, are left to hand back.
            const refundedSince = outage.reached.length - outage.count - (handBack.listed - handBack.count);
            outage.reached = outage.reached.filter((reached) => reached > handBack.durable);
            outage.count = outage.reached.length - refundedSince;
          } else {
            // Below zero when more requests were refunded in PostgreSQL while the hand-back was on its way than were
            // counted: the next hand-back takes them off the counter.
            outage.count -= handBack.count;
            outage.reached.splice(0, handBack.listed);
          }
          if (outage.count === 0 && outage.reached.length === 0 && outage.unanswered.length === 0)
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
        await commands.afrofxSeedQuota(
          key,
          marker,
          restartKey(subject),
          durable,
          ttlFor(subject, Date.now()),
          RESTART_RECORD_MS,
        );
      })().finally(() => seeding.delete(key));
      seeding.set(key, pending);
    }
    return pending;
  }

  async function takeInRedis(
    subject: QuotaSubject,
    keyHash: string,
    now: Date,
    burstLimit: number,
  ): Promise<QuotaOutcome> {
    const key = quotaKey(prefix, subject);
    const burstKey = `${prefix}:burst:${keyHash}`;
    for (let attempt = 0; ; attempt++) {
      const [code, used] = await takes.take(burstKey, key, burstLimit, subject.limit);
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
    burstLimit: number,
    unanswered?: TakeRecord,
  ): Promise<QuotaOutcome> {
    if (!localBurst.allow(keyHash, now, burstLimit))
      return { allowed: false, reason: 'burst', used: subject.processedAtLoad };
    await dirty.persist(db);
    const outcome = await takeInPostgres(db, subject, now);
    if (outcome.allowed) {
      const key = quotaKey(prefix, subject);
      const entry = outageCounts.get(key) ?? { subject, count: 0, unanswered: [], reached: [] };
      entry.count++;
      entry.reached.push(outcome.used);
      if (unanswered) entry.unanswered.push(unanswered);
      outageCounts.set(key, entry);
    }
    return outcome;
  }

  const redisUsable = () => redis.status === 'ready' && !reconciling && outageCounts.size === 0;

  return {
    kind: 'redis',
    async take(subject, keyHash, now, burstLimit = burstPerSecond) {
      if (!subject) {
        if (redis.status === 'ready') {
          try {
            const burstKey = `${prefix}:burst:${keyHash}`;
            // No monthly counter: the script reads none, so the burst counter stands in for its name.
            const [code] = await takes.take(burstKey, burstKey, burstLimit, -1);
            return code === -1 ? { allowed: false, reason: 'burst', used: 0 } : { allowed: true, used: 0 };
          } catch {
            // Falls through to the in-process guard.
          }
        }
        return localBurst.allow(keyHash, now, burstLimit)
          ? { allowed: true, used: 0 }
          : { allowed: false, reason: 'burst', used: 0 };
      }
      // Back from an outage: the counts handed back first, then this take in Redis. Not waiting left each take of a
      // steady trickle in PostgreSQL while it started the hand-back for the one before (issue 21, item 8).
      if (redis.status === 'ready' && outageCounts.size > 0) await reconcile();
      if (redisUsable()) {
        try {
          return await takeInRedis(subject, keyHash, now, burstLimit);
        } catch (err) {
          log.warn({ err }, 'redis quota count failed; counting in PostgreSQL');
          if (err instanceof UnansweredTake)
            return takeInFallback(subject, keyHash, now, burstLimit, err.record);
        }
      }
      return takeInFallback(subject, keyHash, now, burstLimit);
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

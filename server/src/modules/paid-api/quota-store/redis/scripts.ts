// The Lua scripts that count the quota in Redis, and what their answers mean to the store. Every key name the
// scripts read is made here, next to the script that reads it.
import type IORedis from 'ioredis';
import type { DurableRead, QuotaSubject } from '../store';

// A counter's name holding another type of value (or a string that is not a number) is deleted,
// so that the counter is seeded again from the durable count instead of failing every take until someone repairs it.
const REPAIR_LUA = `
local function repair(key)
  local kind = redis.call('TYPE', key).ok
  if kind ~= 'none' and (kind ~= 'string' or not tonumber(redis.call('GET', key))) then redis.call('DEL', key) end
end
`;

// KEYS[1] a marker that lives as long as Redis keeps its data, then a burst counter and a monthly counter per entry,
// then the call's record. ARGV: per entry its burst limit, its monthly limit (-1: none, the burst counter only) and
// how many requests of one key it carries. The requests of an entry are counted as if one after another, so with N
// concurrent requests and R remaining exactly R are counted, but with two counter updates per entry rather than per
// request. Returns three numbers per entry: what stopped the count (`STOP_CODES`), how many were counted and the
// count after. An entry whose keys cannot be read counts nothing, so the other entries stand.
// The last key names the call's record: how many of each entry's requests were counted, kept an hour, so that the
// requests of a call that timed out here (and were counted in PostgreSQL) but ran in Redis later are not counted
// twice.
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

/**
 * What stopped the take script counting an entry's requests: a limit, or a monthly counter the store must seed from
 * the durable count before it takes again.
 */
export type EntryStop =
  /** The monthly limit refused the requests not counted. */
  | 'quota'
  /** The burst limit refused the requests not counted. */
  | 'burst'
  /** The monthly counter is not there yet (its first use this period). */
  | 'missing'
  /** The monthly counter is gone and the data marker with it: Redis lost its data. */
  | 'lost'
  /** A counter's name held another type of value; the script deleted it, so it is seeded again like a missing one. */
  | 'unreadable';

const STOP_CODES = new Map<number, EntryStop>([
  [0, 'quota'],
  [-1, 'burst'],
  [-2, 'missing'],
  [-3, 'lost'],
  [-4, 'unreadable'],
]);

/** The requests of one key and counter in a take call. `limit` -1: no monthly limit, the burst counter only. */
export interface EntryAsked {
  burstKey: string;
  quotaKey: string;
  burstLimit: number;
  limit: number;
  requests: number;
}

/** The take script's answer for one entry: its first `counted` requests were counted, up to `used`. */
export interface EntryAnswer {
  stop: EntryStop;
  counted: number;
  used: number;
}

// KEYS[1] monthly counter, KEYS[2] the data marker, KEYS[3] the counter's restart record. ARGV: floor (the durable
// count), counter TTL ms, restart record TTL ms, the count change the floor was read at. Raises the counter to at
// least the floor, never lowers it; a raised counter holds every request PostgreSQL had counted or given back, and
// its record says up to which count change.
const SEED_SCRIPT = `${REPAIR_LUA}
repair(KEYS[1])
local used = tonumber(redis.call('GET', KEYS[1]) or '-1')
if used < tonumber(ARGV[1]) then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  redis.call('SET', KEYS[3], ARGV[4], 'PX', ARGV[3])
end
redis.call('SET', KEYS[2], '1')
return 1
`;

// KEYS[1] monthly counter, KEYS[2] the data marker, KEYS[3] the hand-back's record, KEYS[4] the counter's restart
// record. ARGV: requests counted in PostgreSQL during an outage, less those refunded and those Redis counted too
// (below zero when more were refunded than counted since the last hand-back), the durable count, counter TTL ms,
// restart record TTL ms, the count change of each request counted (positive) or given back (negative) in
// PostgreSQL, comma-separated (one argument: a long outage lists more than a call can spread), and the count change
// the durable count was read at.
// A counter that survived the outage gets the outage's requests added (1); a lost one restarts from the durable
// count, which already holds them (2). A counter that another process restarted from the durable count meanwhile
// (Redis lost its data while several processes counted in PostgreSQL) already holds the changes up to the one it
// restarted at: only those after it are applied.
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
    -- The changes listed are in the count; those up to the restart are in the counter already.
    for listed in string.gmatch(ARGV[5], '[^,]+') do
      local change = tonumber(listed)
      if math.abs(change) <= restarted then add = add - (change > 0 and 1 or -1) end
    end
  end
  redis.call('INCRBY', KEYS[1], add)
else
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
  redis.call('SET', KEYS[4], ARGV[6], 'PX', ARGV[4])
  applied = 2
end
redis.call('SET', KEYS[3], applied, 'PX', ARGV[3])
redis.call('SET', KEYS[2], '1')
return applied
`;

/**
 * How a hand-back of outage counts was applied: `added` to a counter that survived the outage, or the counter
 * `restarted` from the durable count, which holds them already.
 */
export type HandBackApplied = 'added' | 'restarted';

/** A hand-back of the requests counted in PostgreSQL during an outage, sent under its id. */
export interface HandBackAsked {
  id: string;
  /** Requests to add, less those refunded and those Redis counted too. */
  count: number;
  /** The durable count read for this hand-back: a lost counter restarts from it. */
  durable: DurableRead;
  /** The count change of each request counted in PostgreSQL, and (negative) of each given back there. */
  changes: number[];
}

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
    change: number,
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
    changes: string,
    durableChange: number,
  ): Promise<number>;
  afrofxRefundQuota(quotaKey: string): Promise<number>;
}

/**
 * How long a counter restarted from the durable count keeps the record of the count change it was read at: the
 * processes that counted in PostgreSQL meanwhile hand their counts back as soon as Redis answers them, within
 * seconds. A later outage's changes all come after it, so the record could stay longer; no hand-back needs it then.
 */
const RESTART_RECORD_MS = 10 * 60_000;

export type QuotaScripts = ReturnType<typeof defineQuotaScripts>;

/** Loads the scripts into the connection and calls them with the store's key names. */
export function defineQuotaScripts(redis: IORedis, prefix: string) {
  redis.defineCommand('afrofxTakeQuota', { lua: TAKE_SCRIPT });
  redis.defineCommand('afrofxSeedQuota', { numberOfKeys: 3, lua: SEED_SCRIPT });
  redis.defineCommand('afrofxReconcileQuota', { numberOfKeys: 4, lua: RECONCILE_SCRIPT });
  redis.defineCommand('afrofxRefundQuota', { numberOfKeys: 1, lua: REFUND_SCRIPT });
  const commands = redis as unknown as RedisQuotaCommands;
  const marker = `${prefix}:quota:marker`;
  const restartKey = (subject: QuotaSubject) =>
    `${prefix}:quota-restart:${subject.subscriptionId}:${subject.period.index}`;
  const ttlFor = (subject: QuotaSubject) =>
    Math.max(subject.period.end.getTime() - Date.now(), 0) + 7 * 86_400_000;

  return {
    /** A new name for a take call's record. */
    callRecord: (id: string) => `${marker}:call:${id}`,
    async take(entries: EntryAsked[], call: string): Promise<EntryAnswer[]> {
      const keys = entries.flatMap((entry) => [entry.burstKey, entry.quotaKey]);
      const args = entries.flatMap((entry) => [entry.burstLimit, entry.limit, entry.requests]);
      const outcomes = await commands.afrofxTakeQuota(keys.length + 2, marker, ...keys, call, ...args);
      return entries.map((_, i) => {
        const [code, counted, used] = outcomes.slice(3 * i, 3 * i + 3) as [number, number, number];
        const stop = STOP_CODES.get(code);
        // The call ran: its record tells the fallback what it counted.
        if (!stop) throw new Error(`the take script answered ${code}`);
        return { stop, counted, used };
      });
    },
    /** Raises a missing or lower counter to the durable count. */
    async seed(quotaKey: string, subject: QuotaSubject, durable: DurableRead): Promise<void> {
      await commands.afrofxSeedQuota(
        quotaKey,
        marker,
        restartKey(subject),
        durable.used,
        ttlFor(subject),
        RESTART_RECORD_MS,
        durable.change,
      );
    },
    async reconcile(
      quotaKey: string,
      subject: QuotaSubject,
      handBack: HandBackAsked,
    ): Promise<HandBackApplied> {
      const applied = await commands.afrofxReconcileQuota(
        quotaKey,
        marker,
        `${marker}:hand-back:${handBack.id}`,
        restartKey(subject),
        handBack.count,
        handBack.durable.used,
        ttlFor(subject),
        RESTART_RECORD_MS,
        handBack.changes.join(','),
        handBack.durable.change,
      );
      return applied === 2 ? 'restarted' : 'added';
    },
    /** Gives back one request; answers the count after. */
    refund: (quotaKey: string): Promise<number> => commands.afrofxRefundQuota(quotaKey),
  };
}

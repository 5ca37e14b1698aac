// DESIGN §5: request-log entries are written in batches off the request path. A crash loses at most one flush
// interval; close() (graceful shutdown) writes whatever is buffered. A batch that fails to write stays, with its id,
// at the head of the queue and is written again at the next tick, in order: the id makes the write idempotent, so a
// commit whose answer was lost is not written twice.
import { randomUUID } from 'node:crypto';
import type { NewRequestLog, RequestsService } from '../requests/requests.service';

const HOUR_MS = 3_600_000;
/** Distinct hosts, agents, addresses and paths kept for reuse; past this the set starts again. */
const MAX_INTERNED = 2_000;

/**
 * The served answers not yet cut into a batch, a column each (DESIGN §5: one entry per answer). Under load an
 * entry lives until the next write, long enough for V8 to start allocating the per-answer objects that hold it in
 * the old generation ("pretenuring"), where every young string they point at must be kept and promoted: that made
 * each minor GC several times slower and was most of the paid API's p99 above bare Fastify. Columns of interned
 * strings and numbers keep no object per answer and point at no young string: the answer's own objects die young.
 */
class EntryColumns {
  private appId: string[] = [];
  private host: string[] = [];
  private agent: string[] = [];
  private ipAddress: string[] = [];
  private originalUrl: string[] = [];
  private status: number[] = [];
  private latencyMs: number[] = [];
  private createdAtMs: number[] = [];
  private interned = new Map<string, string>();

  get length() {
    return this.status.length;
  }

  /** The copy of `value` kept already, so that a repeated value keeps no new string alive. */
  private intern(value: string): string {
    const kept = this.interned.get(value);
    if (kept !== undefined) return kept;
    if (this.interned.size >= MAX_INTERNED) this.interned.clear();
    this.interned.set(value, value);
    return value;
  }

  push(entry: NewRequestLog) {
    this.appId.push(this.intern(entry.appId));
    this.host.push(this.intern(entry.host));
    this.agent.push(this.intern(entry.agent));
    this.ipAddress.push(this.intern(entry.ipAddress));
    this.originalUrl.push(this.intern(entry.originalUrl));
    this.status.push(entry.status);
    this.latencyMs.push(entry.latencyMs);
    this.createdAtMs.push(entry.createdAt.getTime());
  }

  /** The entries pushed so far, oldest first, and empty columns for the next ones. */
  take(): NewRequestLog[] {
    const entries = this.status.map((status, i) => ({
      appId: this.appId[i]!,
      host: this.host[i]!,
      agent: this.agent[i]!,
      ipAddress: this.ipAddress[i]!,
      originalUrl: this.originalUrl[i]!,
      status,
      latencyMs: this.latencyMs[i]!,
      createdAt: new Date(this.createdAtMs[i]!),
    }));
    this.appId = [];
    this.host = [];
    this.agent = [];
    this.ipAddress = [];
    this.originalUrl = [];
    this.status = [];
    this.latencyMs = [];
    this.createdAtMs = [];
    return entries;
  }
}

export interface RequestLogHealth {
  /** Entries waiting to be written. */
  buffered: number;
  lastFlushAt: string | null;
  /** Since when writes have been failing; null while they succeed. */
  failingSince: string | null;
  /** Entries dropped because the buffer was full during a long outage (since the process started). */
  dropped: number;
}

export interface RequestLogBuffer {
  /** A served (counted) answer or a server error: one row each. */
  push(entry: NewRequestLog): void;
  /** An answer that was not counted (a refusal, a 304): one row per key, status and flush with their number. */
  pushUncounted(entry: NewRequestLog): void;
  flush(): Promise<void>;
  close(): Promise<void>;
  health(): RequestLogHealth;
}

interface Log {
  error(obj: object, msg: string): void;
}

export interface RequestLogBufferOptions {
  flushMs: number;
  log: Log;
  /** Past this many unwritten entries (a long database outage) the oldest are dropped, and health says so. */
  maxBuffered?: number;
  /**
   * A batch this large is written without waiting for the timer (none: only the timer writes). Encoding a batch for
   * a PostgreSQL server runs on the event loop the API answers on: a second of entries under load (thousands) held
   * every answer for tens of milliseconds at once. The embedded database writes on that loop too, but pays for
   * each transaction, so it keeps to the timer.
   */
  batchSize?: number;
  /**
   * The most entries one write carries; between writes the writer lets the event loop run (none: a cut is written
   * whole). The embedded database runs on the API's own thread, so one write of a second's entries held every
   * answer behind it: in slices, no answer waits for more than one slice.
   */
  sliceSize?: number;
  /** Runs after each successful write of the log (the quota counts go with it). */
  afterFlush?: () => Promise<void>;
  /** How long close() keeps trying to write what is buffered. */
  closeRetryMs?: number;
}

export function createRequestLogBuffer(
  requests: RequestsService,
  {
    flushMs,
    log,
    maxBuffered = 200_000,
    batchSize = Infinity,
    sliceSize = Infinity,
    afterFlush,
    closeRetryMs = 5_000,
  }: RequestLogBufferOptions,
): RequestLogBuffer {
  const current = new EntryColumns();
  const uncounted = new Map<string, NewRequestLog>();
  /** Batches cut but not yet written, oldest first. */
  const pending: Array<{ id: string; entries: NewRequestLog[] }> = [];
  let buffered = 0;
  let dropped = 0;
  let lastFlushAt: Date | null = null;
  let failingSince: Date | null = null;
  let lastPruneAt = 0;
  let flushing: Promise<void> | undefined;

  function makeRoom() {
    while (buffered > maxBuffered) {
      if (pending.length === 0) cutBatch();
      const oldest = pending[0]?.entries;
      if (!oldest) return;
      const excess = Math.min(buffered - maxBuffered, oldest.length);
      if (excess === 0) return;
      oldest.splice(0, excess);
      if (pending[0] && pending[0].entries.length === 0) pending.shift();
      buffered -= excess;
      dropped += excess;
      log.error({ dropped: excess }, 'request log buffer full: dropped the oldest entries');
    }
  }

  function cutBatch() {
    const entries = current.take();
    for (const entry of uncounted.values()) entries.push(entry);
    uncounted.clear();
    if (entries.length <= sliceSize) {
      if (entries.length > 0) pending.push({ id: randomUUID(), entries });
      return;
    }
    for (let start = 0; start < entries.length; start += sliceSize)
      pending.push({ id: randomUUID(), entries: entries.slice(start, start + sliceSize) });
  }

  async function writePending() {
    cutBatch();
    try {
      while (pending.length > 0) {
        const batch = pending[0]!;
        await requests.record(batch.entries, batch.id);
        pending.shift();
        buffered -= batch.entries.length;
        // The answers waiting on the loop go out before the next slice is written.
        if (pending.length > 0 && sliceSize !== Infinity)
          await new Promise((resolve) => setImmediate(resolve));
      }
      await afterFlush?.();
      if (Date.now() - lastPruneAt > HOUR_MS) {
        await requests.pruneBatchIds();
        lastPruneAt = Date.now();
      }
      lastFlushAt = new Date();
      failingSince = null;
    } catch (err) {
      failingSince ??= new Date();
      log.error({ err, buffered }, 'request log or quota flush failed; will retry');
    }
  }

  const flush = (): Promise<void> => {
    flushing ??= writePending().finally(() => (flushing = undefined));
    return flushing;
  };

  const timer = setInterval(() => void flush(), flushMs);
  timer.unref();

  return {
    push(entry) {
      current.push(entry);
      buffered++;
      makeRoom();
      if (current.length >= batchSize) void flush();
    },
    pushUncounted(entry) {
      // Only identical calls share a row: a refused /v1/convert and a refused /v1/rates/history are two calls to read.
      const key = `${entry.appId}|${entry.status}|${entry.originalUrl}`;
      const folded = uncounted.get(key);
      if (folded) {
        folded.count = (folded.count ?? 1) + 1;
        return;
      }
      uncounted.set(key, { ...entry, count: 1 });
      buffered++;
      makeRoom();
    },
    flush,
    async close() {
      clearInterval(timer);
      await flushing;
      // A database that is restarting gets a few seconds at shutdown before what is left is given up, loudly.
      const deadline = Date.now() + closeRetryMs;
      await flush();
      while (buffered > 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        await flush();
      }
      if (buffered > 0) log.error({ lost: buffered }, 'request log entries not written at shutdown');
    },
    health: () => ({
      buffered,
      lastFlushAt: lastFlushAt?.toISOString() ?? null,
      failingSince: failingSince?.toISOString() ?? null,
      dropped,
    }),
  };
}

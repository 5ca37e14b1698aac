// DESIGN §5: request-log entries are written in batches off the request path. A crash loses at most one flush
// interval; close() (graceful shutdown) writes whatever is buffered. A batch that fails to write stays, with its id,
// at the head of the queue and is written again at the next tick, in order: the id makes the write idempotent, so a
// commit whose answer was lost is not written twice.
import { randomUUID } from 'node:crypto';
import type { NewRequestLog, RequestsService } from '../requests/requests.service';

const HOUR_MS = 3_600_000;

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
  /** Runs after each successful write of the log (the quota counts go with it). */
  afterFlush?: () => Promise<void>;
  /** How long close() keeps trying to write what is buffered. */
  closeRetryMs?: number;
}

export function createRequestLogBuffer(
  requests: RequestsService,
  { flushMs, log, maxBuffered = 200_000, afterFlush, closeRetryMs = 5_000 }: RequestLogBufferOptions,
): RequestLogBuffer {
  let current: NewRequestLog[] = [];
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
      const oldest = pending[0]?.entries ?? current;
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
    for (const entry of uncounted.values()) current.push(entry);
    uncounted.clear();
    if (current.length > 0) pending.push({ id: randomUUID(), entries: current });
    current = [];
  }

  async function writePending() {
    cutBatch();
    try {
      while (pending.length > 0) {
        const batch = pending[0]!;
        await requests.record(batch.entries, batch.id);
        pending.shift();
        buffered -= batch.entries.length;
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
    },
    pushUncounted(entry) {
      const key = `${entry.appId}|${entry.status}`;
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

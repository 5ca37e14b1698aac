// DESIGN §5: request-log entries are written in batches off the request path. A crash loses at most one
// flush interval; close() (graceful shutdown) writes whatever is buffered.
import type { NewRequestLog, RequestsService } from '../requests/requests.service';

/** Past this many unwritten entries (a long database outage) the oldest are dropped, loudly. */
const MAX_BUFFERED = 200_000;

export interface RequestLogBuffer {
  push(entry: NewRequestLog): void;
  flush(): Promise<void>;
  close(): Promise<void>;
}

interface Log {
  error(obj: object, msg: string): void;
}

export function createRequestLogBuffer(
  requests: RequestsService,
  flushMs: number,
  log: Log,
  afterFlush?: () => Promise<void>,
): RequestLogBuffer {
  let buffer: NewRequestLog[] = [];
  let writing: Promise<void> = Promise.resolve();

  const flush = () => {
    writing = writing.then(async () => {
      const batch = buffer;
      buffer = [];
      try {
        await requests.record(batch);
        await afterFlush?.();
      } catch (err) {
        buffer = batch.concat(buffer);
        if (buffer.length > MAX_BUFFERED) {
          const dropped = buffer.length - MAX_BUFFERED;
          buffer = buffer.slice(dropped);
          log.error({ dropped }, 'request log buffer full: dropped the oldest entries');
        }
        throw err;
      }
    });
    return writing.catch((err: unknown) => log.error({ err }, 'request log flush failed; will retry'));
  };

  const timer = setInterval(() => void flush(), flushMs);
  timer.unref();

  return {
    push: (entry) => void buffer.push(entry),
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}

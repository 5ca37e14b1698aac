// The embedded database's write of a request-log batch. PGlite runs on the API's own thread, so what a log row
// costs there is taken from the answers: each statement is a round trip through the WebAssembly engine (a few
// hundred microseconds, whatever its size) and each row's foreign-key check is a query of its own. One simple
// query carries the whole batch (batch id, daily roll-up and rows, one implicit transaction), and the rows are
// copied without their per-row check of the app: the roll-up of the same transaction names every app of the
// batch and is checked, so a batch of an app deleted meanwhile still fails whole, as it did row by row.
import type { PGlite } from '@electric-sql/pglite';

/** One log entry as the writer holds it (requests.service's NewRequestLog). */
export interface EmbeddedLogEntry {
  appId: string;
  host: string;
  agent: string;
  ipAddress: string;
  originalUrl: string;
  status: number;
  latencyMs: number;
  count?: number | null;
  createdAt: Date;
}

/** A day's count of an app in the batch, added to request_daily_counts. */
export interface DayCount {
  appId: string;
  day: string;
  count: number;
  entries: number;
}

/** A field of COPY's text format: backslash escapes for the characters that separate fields and rows. */
export function copyField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '\\N';
  return String(value).replace(
    /[\\\t\n\r]/g,
    (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c]!,
  );
}

/** A string literal of SQL (standard_conforming_strings: only the quote is doubled). */
const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;

/** The batch as COPY text rows. A batch repeats few strings (one app, host, agent and path): each is escaped once. */
export function copyRows(entries: ReadonlyArray<EmbeddedLogEntry>): string {
  const escaped = new Map<string, string>();
  const field = (value: string) => {
    let kept = escaped.get(value);
    if (kept === undefined) escaped.set(value, (kept = copyField(value)));
    return kept;
  };
  let rows = '';
  for (const e of entries)
    rows += `${field(e.appId)}\t${field(e.host)}\t${field(e.agent)}\t${field(e.ipAddress)}\t${field(e.originalUrl)}\t${e.status}\t${e.latencyMs}\t${e.count ?? 1}\t${e.createdAt.toISOString()}\n`;
  return rows;
}

/** PostgreSQL's answer when the batch id is already there (unique_violation on request_log_batches). */
function isWrittenBefore(err: unknown): boolean {
  const { code, constraint } = (err ?? {}) as { code?: unknown; constraint?: unknown };
  return code === '23505' && constraint === 'request_log_batches_pkey';
}

/**
 * Writes the batch, its roll-up and its id in one transaction, once per batch id: a batch whose id is there
 * already (a commit whose answer was lost) writes nothing.
 */
export async function writeEmbeddedBatch(
  pglite: PGlite,
  entries: ReadonlyArray<EmbeddedLogEntry>,
  days: ReadonlyArray<DayCount>,
  batchId: string,
): Promise<void> {
  const values = days
    .map((d) => `(${literal(d.appId)}::uuid, ${literal(d.day)}::date, ${d.count}, ${d.entries})`)
    .join(', ');
  // A statement that fails (the id is there, a day has no partition) rolls the whole query back.
  const batch = `
    INSERT INTO request_log_batches (id) VALUES (${literal(batchId)});
    INSERT INTO request_daily_counts (app_id, day, count, entries) VALUES ${values}
      ON CONFLICT (app_id, day) DO UPDATE SET count = request_daily_counts.count + excluded.count,
        entries = request_daily_counts.entries + excluded.entries;
    SET LOCAL session_replication_role = replica;
    COPY request_logs (app_id, host, agent, ip_address, original_url, status, latency_ms, count, created_at) FROM '/dev/blob';`;
  try {
    await pglite.exec(batch, { blob: new Blob([copyRows(entries)]) });
  } catch (err) {
    if (!isWrittenBefore(err)) throw err;
  }
}

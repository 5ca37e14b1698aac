import { randomUUID } from 'node:crypto';
import { and, desc, eq, gte, lt, sql } from 'drizzle-orm';
import { formatUtcDate, type RequestAnalytics, type RequestLogEntry } from '@afrofx/shared';
import type { PGlite } from '@electric-sql/pglite';
import type { Database } from '../../db/client';
import { requestDailyCounts, requestLogBatches, requestLogs } from '../../db/schema';
import { badRequest } from '../../errors';
import type { Page } from '../../http';
import { writeEmbeddedBatch } from './embedded-log-write';
import {
  addDays,
  createRequestLogPartitions,
  isMissingPartition,
  type DayTable,
} from './request-log-partitions';

export type NewRequestLog = typeof requestLogs.$inferInsert & { createdAt: Date };

const DAY_MS = 86_400_000;
/** Analytics windows: today, the last 7 days and the last 30 days, by UTC calendar day, today included. */
const WEEK_DAYS = 7;
const MONTH_DAYS = 30;

/**
 * A Postgres array literal, so that a whole column travels as one parameter on both drivers. A batch repeats few
 * values (one app, host, agent and path answer thousands of times), so each is escaped once: the literal is built on
 * the event loop the API answers on.
 */
function pgArray(values: ReadonlyArray<string | number | null | undefined>): string {
  const escaped = new Map<string | number | null | undefined, string>();
  const items = values.map((value) => {
    let item = escaped.get(value);
    if (item === undefined) {
      item = value === null || value === undefined ? 'NULL' : `"${String(value).replace(/["\\]/g, '\\$&')}"`;
      escaped.set(value, item);
    }
    return item;
  });
  return `{${items.join(',')}}`;
}

/** The UTC calendar day of each entry, formatted once per day rather than once per entry. */
function utcDays(entries: ReadonlyArray<NewRequestLog>): string[] {
  const names = new Map<number, string>();
  return entries.map((entry) => {
    const day = Math.floor(entry.createdAt.getTime() / DAY_MS);
    let name = names.get(day);
    if (name === undefined) {
      name = formatUtcDate(new Date(day * DAY_MS));
      names.set(day, name);
    }
    return name;
  });
}

/** Days of partitions kept ready ahead of today, so a missed run or two never leaves a day without one. */
export const PARTITION_DAYS_AHEAD = 7;

/** Where a page of the request log is looked for, in days back from where it starts (undefined: all the rest). */
const SEARCH_SPANS_DAYS = [1, 7, 31, undefined] as const;

/** The first day still in the log, read from the catalogue rather than from the rows (no partition planned). */
const OLDEST_PARTITION_DAY = sql`
  SELECT to_date(substr(min(c.relname), length('request_logs_') + 1), 'YYYYMMDD')
  FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
  WHERE i.inhparent = 'request_logs'::regclass AND NOT i.inhdetachpending`;

/** A page of the request log: by number (offset, the SPEC's `?page={n}`) or after a cursor (keyset). */
export type RequestLogPosition =
  { page: Page; cursor?: undefined } | { page?: undefined; cursor: string; limit: number };

/** The cursor names the last row shown: its time in microseconds since the epoch (the column's precision) and id. */
function encodeCursor(micros: string, id: number | string): string {
  return Buffer.from(`${micros}.${id}`).toString('base64url');
}

function decodeCursor(cursor: string): { micros: string; id: string } {
  const match = /^(\d{1,17})\.(\d{1,18})$/.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  if (!match)
    throw badRequest('cursor is not one this API gave: pass pagination.cursor of the previous page.');
  return { micros: match[1]!, id: match[2]! };
}

export function createRequestsService(db: Database, pglite?: PGlite) {
  const partitions = createRequestLogPartitions(db, pglite !== undefined);

  /**
   * Writes a batch of log entries and their daily roll-up in one transaction, once per batch id: a batch sent
   * again after a commit whose answer was lost finds its id and writes nothing.
   */
  async function write(entries: NewRequestLog[], batchId: string): Promise<void> {
    const perDay = new Map<string, { appId: string; day: string; count: number; entries: number }>();
    const entryDays = utcDays(entries);
    for (const [i, entry] of entries.entries()) {
      const day = entryDays[i]!;
      const key = `${entry.appId}|${day}`;
      const bucket = perDay.get(key) ?? { appId: entry.appId, day, count: 0, entries: 0 };
      bucket.count += entry.count ?? 1;
      bucket.entries++;
      perDay.set(key, bucket);
    }
    const days = [...perDay.values()];
    if (pglite) return writeEmbeddedBatch(pglite, entries, days, batchId);

    const claimBatch = sql`INSERT INTO ${requestLogBatches} (id) VALUES (${batchId}) ON CONFLICT DO NOTHING RETURNING id`;
    const rollUp = (column: (d: (typeof days)[number]) => string | number) => pgArray(days.map(column));
    const upsertDays = sql`
        INSERT INTO ${requestDailyCounts} (app_id, day, count, entries)
        SELECT * FROM unnest(${rollUp((d) => d.appId)}::uuid[], ${rollUp((d) => d.day)}::date[], ${rollUp((d) => d.count)}::int[], ${rollUp((d) => d.entries)}::int[])
        ON CONFLICT (app_id, day) DO UPDATE SET count = ${requestDailyCounts.count} + excluded.count,
          entries = ${requestDailyCounts.entries} + excluded.entries`;
    // One statement with eight array parameters: far cheaper to build and parse than thousands of placeholders.
    const column = <K extends keyof NewRequestLog>(key: K) => entries.map((e) => e[key]);
    await db.transaction(async (tx) => {
      const claimed = (await tx.execute(claimBatch)) as unknown as { rows: unknown[] };
      if (claimed.rows.length === 0) return;
      // Times travel as epoch milliseconds: a number per entry instead of a formatted string.
      await tx.execute(sql`
          INSERT INTO ${requestLogs} (app_id, host, agent, ip_address, original_url, status, latency_ms, count, created_at)
          SELECT app_id, host, agent, ip_address, original_url, status, latency_ms, count, to_timestamp(created_at_ms / 1000.0)
          FROM unnest(
            ${pgArray(column('appId'))}::uuid[], ${pgArray(column('host'))}::text[], ${pgArray(column('agent'))}::text[],
            ${pgArray(column('ipAddress'))}::text[], ${pgArray(column('originalUrl'))}::text[], ${pgArray(column('status'))}::int[],
            ${pgArray(column('latencyMs'))}::real[], ${pgArray(entries.map((e) => e.count ?? 1))}::int[],
            ${pgArray(entries.map((e) => e.createdAt.getTime()))}::float8[]
          ) AS batch(app_id, host, agent, ip_address, original_url, status, latency_ms, count, created_at_ms)`);
      await tx.execute(upsertDays);
    });
  }

  /** Takes a day past the retention out of the log: detached, its roll-up made complete, then dropped. */
  async function retire(table: DayTable): Promise<void> {
    if (table.attached) await partitions.detach(table);
    await partitions.completeRollUp(table);
    await partitions.drop(table);
  }

  return {
    partitions,

    /**
     * Writes a batch of log entries (see write). A day without a partition (the maintenance job has not run for a
     * week, or an entry's clock is far off) gets one there and then, and the batch is written again: the write's
     * transaction rolled back whole, batch id included.
     */
    async record(entries: NewRequestLog[], batchId: string = randomUUID()): Promise<void> {
      if (entries.length === 0) return;
      try {
        await write(entries, batchId);
      } catch (err) {
        if (!isMissingPartition(err)) throw err;
        // Another writer may be creating the same day this instant: its error is not this batch's, the second
        // write tells whether the day is there now.
        for (const day of new Set(utcDays(entries))) await partitions.createNow(day).catch(() => undefined);
        await write(entries, batchId);
      }
    },

    /**
     * Keeps request_logs to its retention: finishes what an interrupted run left (a half-done detach, a detached
     * day not yet dropped), retires every day older than `retentionDays` before today (UTC), and creates the
     * partitions of today and the next days. Each step leaves the table whole, so a run cut off anywhere is
     * completed by the next.
     */
    async maintainPartitions(
      retentionDays: number,
      now = new Date(),
    ): Promise<{ created: string[]; dropped: string[] }> {
      const today = formatUtcDate(now);
      const oldestKept = addDays(today, -retentionDays);
      const tables = await partitions.tables();
      const dropped: string[] = [];
      // The half-detached first: PostgreSQL detaches one partition at a time.
      const toRetire = [
        ...tables.filter((t) => t.detachPending),
        ...tables.filter((t) => !t.detachPending && t.day < oldestKept),
      ];
      for (const table of toRetire) {
        await retire(table);
        dropped.push(table.day);
      }
      const existing = new Set(tables.map((t) => t.day));
      const created: string[] = [];
      for (let ahead = 0; ahead <= PARTITION_DAYS_AHEAD; ahead++) {
        const day = addDays(today, ahead);
        if (existing.has(day)) continue;
        await partitions.createAhead(day);
        created.push(day);
      }
      return { created, dropped };
    },

    /** Batch ids only guard against a retry within seconds; a day's worth is plenty. */
    async pruneBatchIds(): Promise<void> {
      await db
        .delete(requestLogBatches)
        .where(sql`${requestLogBatches.writtenAt} < now() - interval '1 day'`);
    },

    async analytics(appId: string, now = new Date()): Promise<RequestAnalytics> {
      const since = formatUtcDate(new Date(now.getTime() - (MONTH_DAYS - 1) * DAY_MS));
      const rows = await db
        .select({ day: requestDailyCounts.day, count: requestDailyCounts.count })
        .from(requestDailyCounts)
        .where(and(eq(requestDailyCounts.appId, appId), gte(requestDailyCounts.day, since)));
      const byDay = new Map(rows.map((r) => [r.day, r.count]));
      const daily = Array.from({ length: MONTH_DAYS }, (_, i) => {
        const day = formatUtcDate(new Date(now.getTime() - (MONTH_DAYS - 1 - i) * DAY_MS));
        return { day, count: byDay.get(day) ?? 0 };
      });
      const sum = (days: number) => daily.slice(-days).reduce((total, d) => total + d.count, 0);
      return { todayCount: sum(1), weekCount: sum(WEEK_DAYS), monthCount: sum(MONTH_DAYS), daily };
    },

    /**
     * A page of an app's log, newest first, and the cursor of the rows after it (null at the end: one row more
     * than the page is read to know). By cursor the page starts right after the row it names, through the
     * (app_id, created_at, id) index: as fast a thousand pages deep as on the first.
     */
    async list(
      appId: string,
      position: RequestLogPosition,
      now = new Date(),
    ): Promise<{ rows: RequestLogEntry[]; count: number; cursor: string | null; more: boolean }> {
      const limit = position.page ? position.page.limit : position.limit;
      const after = position.cursor === undefined ? undefined : decodeCursor(position.cursor);
      const rowsBetween = (from: Date | undefined, to: Date | undefined, wanted: number) =>
        db
          .select({
            row: requestLogs,
            micros: sql<string>`(extract(epoch from ${requestLogs.createdAt}) * 1000000)::bigint::text`,
          })
          .from(requestLogs)
          .where(
            and(
              eq(requestLogs.appId, appId),
              after &&
                sql`(${requestLogs.createdAt}, ${requestLogs.id}) < (timestamptz 'epoch' + ${after.micros}::bigint * interval '1 microsecond', ${after.id}::bigint)`,
              from && gte(requestLogs.createdAt, from),
              to && lt(requestLogs.createdAt, to),
            ),
          )
          .orderBy(desc(requestLogs.createdAt), desc(requestLogs.id))
          .limit(wanted);

      /**
       * Planning a query over every day's partition costs more than running it. A page is looked for in the day
       * before its starting point first, where a busy log finds it, so that PostgreSQL plans a few partitions only;
       * then in wider spans, each after the last, and only a sparse log reaches the unbounded one.
       */
      async function newestFirst(): Promise<Array<Awaited<ReturnType<typeof rowsBetween>>[number]>> {
        const anchor = after ? Number(BigInt(after.micros) / 1000n) : now.getTime();
        const found: Awaited<ReturnType<typeof rowsBetween>> = [];
        let to: Date | undefined;
        for (const days of SEARCH_SPANS_DAYS) {
          const from = days === undefined ? undefined : new Date(anchor - days * DAY_MS);
          found.push(...(await rowsBetween(from, to, limit + 1 - found.length)));
          if (found.length > limit || from === undefined) break;
          to = from;
        }
        return found;
      }

      const offset = position.page?.offset ?? 0;
      const [found, [total]] = await Promise.all([
        offset > 0 ? rowsBetween(undefined, undefined, limit + 1).offset(offset) : newestFirst(),
        // The roll-up is written in the same transaction as the log, so its sum is the log's exact size, read from
        // at most one row per day instead of counting every entry (a page of a million-row log: ~0.4-1.2 s -> ms).
        // Days before the oldest partition are those retention dropped: their roll-ups stay for the analytics.
        db
          .select({ value: sql`coalesce(sum(${requestDailyCounts.entries}), 0)`.mapWith(Number) })
          .from(requestDailyCounts)
          .where(
            and(
              eq(requestDailyCounts.appId, appId),
              sql`${requestDailyCounts.day} >= coalesce((${OLDEST_PARTITION_DAY}), '-infinity'::date)`,
            ),
          ),
      ]);
      const more = found.length > limit;
      const shown = found.slice(0, limit);
      const last = shown.at(-1);
      return {
        cursor: more && last ? encodeCursor(last.micros, last.row.id) : null,
        more,
        count: total?.value ?? 0,
        rows: shown.map(({ row: r }) => ({
          _id: String(r.id),
          host: r.host,
          agent: r.agent,
          ipAddress: r.ipAddress,
          originalUrl: r.originalUrl,
          status: r.status,
          latency: r.latencyMs,
          count: r.count,
          createdAt: r.createdAt.toISOString(),
        })),
      };
    },
  };
}

export type RequestsService = ReturnType<typeof createRequestsService>;

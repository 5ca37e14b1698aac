// request_logs is partitioned by UTC day on created_at (migration 0011): one table per day, named
// request_logs_YYYYMMDD, so that retention drops a day whole. drizzle has no words for partitions; this file holds
// the SQL that creates them ahead, on demand, and retires those past the retention.
import { sql } from 'drizzle-orm';
import { formatUtcDate } from '@afrofx/shared';
import type { Database } from '../../db/client';

const DAY_MS = 86_400_000;
const PARTITION_NAME = /^request_logs_(\d{4})(\d{2})(\d{2})$/;

/** The partition of a UTC calendar day (YYYY-MM-DD). */
export const partitionOf = (day: string) => `request_logs_${day.replaceAll('-', '')}`;

export const addDays = (day: string, days: number) =>
  formatUtcDate(new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS));

const bounds = (day: string) => ({
  from: sql.raw(`'${day} 00:00:00+00'`),
  to: sql.raw(`'${addDays(day, 1)} 00:00:00+00'`),
});

/** A day's table as it stands: attached to request_logs, half-detached (an interrupted DETACH … CONCURRENTLY), or not. */
export interface DayTable {
  day: string;
  name: string;
  attached: boolean;
  detachPending: boolean;
}

/** PostgreSQL's answer when a row's day has no partition (check_violation). */
export function isMissingPartition(err: unknown): boolean {
  for (
    let e = err;
    e instanceof Error || (e && typeof e === 'object');
    e = (e as { cause?: unknown }).cause
  ) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (code === '23514' && typeof message === 'string' && message.includes('no partition')) return true;
    if (!(e as { cause?: unknown }).cause) break;
  }
  return false;
}

/** Every day's table, oldest first, attached or not. */
async function dayTables(db: Database): Promise<DayTable[]> {
  const found = (
    (await db.execute(sql`
      SELECT c.relname AS name, i.inhrelid IS NOT NULL AS attached, i.inhdetachpending AS detach_pending
      FROM pg_class c
      LEFT JOIN pg_inherits i ON i.inhrelid = c.oid AND i.inhparent = 'request_logs'::regclass
      WHERE c.relkind = 'r' AND c.relnamespace = current_schema()::regnamespace
        AND c.relname ~ '^request_logs_[0-9]{8}$'`)) as unknown as {
      rows: Array<{ name: string; attached: boolean; detach_pending: boolean | null }>;
    }
  ).rows;
  return found
    .map((t) => {
      const [, y, m, d] = PARTITION_NAME.exec(t.name)!;
      return {
        day: `${y}-${m}-${d}`,
        name: t.name,
        attached: t.attached,
        detachPending: t.detach_pending === true,
      };
    })
    .sort((a, b) => a.day.localeCompare(b.day));
}

export function createRequestLogPartitions(db: Database, embedded: boolean) {
  return {
    tables: () => dayTables(db),

    /**
     * Creates the day's partition beside the table and attaches it: ATTACH takes a lock that lets inserts go on,
     * where CREATE … PARTITION OF would stop them for a moment. One transaction: never a table left unattached.
     */
    async createAhead(day: string): Promise<void> {
      const name = sql.identifier(partitionOf(day));
      const { from, to } = bounds(day);
      await db.transaction(async (tx) => {
        await tx.execute(sql`CREATE TABLE ${name} (LIKE request_logs INCLUDING DEFAULTS)`);
        await tx.execute(
          sql`ALTER TABLE request_logs ATTACH PARTITION ${name} FOR VALUES FROM (${from}) TO (${to})`,
        );
      });
    },

    /** The request path's fallback for a day nobody created ahead: one statement, safe to race (IF NOT EXISTS). */
    async createNow(day: string): Promise<void> {
      const { from, to } = bounds(day);
      await db.execute(
        sql`CREATE TABLE IF NOT EXISTS ${sql.identifier(partitionOf(day))} PARTITION OF request_logs FOR VALUES FROM (${from}) TO (${to})`,
      );
    },

    /**
     * Takes a day out of request_logs. On PostgreSQL CONCURRENTLY, so inserts into the other days never wait; an
     * earlier detach that was cut off half-way is finished first (FINALIZE), as PostgreSQL allows one at a time.
     */
    async detach(table: DayTable): Promise<void> {
      const name = sql.identifier(table.name);
      if (table.detachPending) {
        await db.execute(sql`ALTER TABLE request_logs DETACH PARTITION ${name} FINALIZE`);
      } else if (embedded) {
        await db.execute(sql`ALTER TABLE request_logs DETACH PARTITION ${name}`);
      } else {
        await db.execute(sql`ALTER TABLE request_logs DETACH PARTITION ${name} CONCURRENTLY`);
      }
    },

    /**
     * Makes the day's roll-up hold at least what the detached table holds, before the rows go. The log's writer
     * keeps the roll-up in the same transaction as the rows, so this finds it complete and changes nothing; it
     * stands guard for rows that came without one (those logged before the roll-up existed).
     */
    async completeRollUp(table: DayTable): Promise<void> {
      await db.execute(sql`
        INSERT INTO request_daily_counts (app_id, day, count, entries)
        SELECT log.app_id, ${table.day}::date, sum(log.count), count(*)
        FROM ${sql.identifier(table.name)} AS log JOIN apps ON apps.id = log.app_id
        GROUP BY log.app_id
        ON CONFLICT (app_id, day) DO UPDATE SET
          count = greatest(request_daily_counts.count, excluded.count),
          entries = greatest(request_daily_counts.entries, excluded.entries)`);
    },

    async drop(table: DayTable): Promise<void> {
      await db.execute(sql`DROP TABLE IF EXISTS ${sql.identifier(table.name)}`);
    },
  };
}

export type RequestLogPartitions = ReturnType<typeof createRequestLogPartitions>;

// The paid API's request log, its daily roll-up and the ids of the batches written.
import {
  bigserial,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { apps } from './accounts';

export const requestLogs = pgTable(
  'request_logs',
  {
    id: bigserial('id', { mode: 'number' }).notNull(),
    appId: uuid('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    host: text('host').notNull(),
    agent: text('agent').notNull(),
    ipAddress: text('ip_address').notNull(),
    originalUrl: text('original_url').notNull(),
    status: integer('status').notNull(),
    latencyMs: real('latency_ms').notNull(),
    /** Refused calls of one key, status and minute are one row with their number (served calls: 1 each). */
    count: integer('count').notNull().default(1),
    createdAt: createdAt(),
  },
  (t) => [
    // The table is partitioned by day on created_at (migration 0011, which drizzle-kit cannot express): a
    // partitioned table's primary key must hold its partition key.
    primaryKey({ columns: [t.createdAt, t.id] }),
    index('request_logs_app_created_idx').on(
      t.appId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
  ],
);

// Daily roll-up kept beside the request log, so analytics read a handful of rows whatever the log's size.
export const requestDailyCounts = pgTable(
  'request_daily_counts',
  {
    appId: uuid('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    /** Requests of the day (a folded refusal row counts its number). */
    count: integer('count').notNull().default(0),
    /** Log rows of the day: the request log's page count. */
    entries: integer('entries').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.appId, t.day] })],
);

// Each request-log flush writes its batch id in the same transaction, so a batch retried after a commit whose
// answer was lost is recognised and not written twice. Old ids are pruned.
export const requestLogBatches = pgTable('request_log_batches', {
  id: uuid('id').primaryKey(),
  writtenAt: timestamp('written_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

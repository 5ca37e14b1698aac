// The rates: each entry, the publications that make a morning's entries live together, their revisions, the
// official series, and what the admins do to them.
import { sql } from 'drizzle-orm';
import {
  bigserial,
  date,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  pgView,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { OFFICIAL_SOURCES } from '@afrofx/shared';
import { marketEnum, rateSourceEnum, rateRevisionKindEnum, assetEnum, baseEnum } from './enums';
import { createdAt, updatedAt, money } from './columns';
import { accounts } from './accounts';

export const rates = pgTable(
  'rates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    market: marketEnum('market').notNull(),
    asset: assetEnum('asset').notNull(),
    base: baseEnum('base').notNull(),
    buy: money('buy').notNull(),
    sell: money('sell').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    // Provenance: the publication the figure went out in, where it came from and who published it. Records from
    // before publications existed have none and read as `seed`.
    publicationId: uuid('publication_id').references((): AnyPgColumn => ratePublications.id),
    source: rateSourceEnum('source').notNull().default('seed'),
    publishedBy: uuid('published_by').references((): AnyPgColumn => accounts.id, { onDelete: 'set null' }),
  },
  (t) => [
    // Latest-per-pair lookups (fetch_rates, the paid API, history) walk this index backwards.
    index('rates_pair_created_idx').on(t.market, t.base, t.asset, t.createdAt.desc().nullsFirst()),
    index('rates_created_idx').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
  ],
);

export const officialSourceEnum = pgEnum('official_source', OFFICIAL_SOURCES);

/**
 * A publication: the rows an admin sends together (the desk, a CSV upload, the admin API), stored in one transaction
 * with one timestamp, so readers see the whole board change at once.
 */
export const ratePublications = pgTable('rate_publications', {
  id: uuid('id').primaryKey().defaultRandom(),
  source: rateSourceEnum('source').notNull(),
  publishedBy: uuid('published_by').references((): AnyPgColumn => accounts.id, { onDelete: 'set null' }),
  rowCount: integer('row_count').notNull(),
  publishedAt: timestamp('published_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/**
 * A publication whose alerts are not yet handed to the queue: written in the publication's transaction, removed once
 * the alerts job is queued. A queue that was away when the rates went out leaves its row for the minute's sweep.
 */
export const publicationAlertsOutbox = pgTable('publication_alerts_outbox', {
  publicationId: uuid('publication_id')
    .primaryKey()
    .references(() => ratePublications.id, { onDelete: 'cascade' }),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/**
 * A correction or withdrawal of a published rate, appended and never changed: the rate row keeps its first figure and
 * reads serve the newest revision (the served_rates view). A withdrawal hides the rate from reads.
 */
export const rateRevisions = pgTable(
  'rate_revisions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    rateId: uuid('rate_id')
      .notNull()
      .references(() => rates.id),
    revision: integer('revision').notNull(),
    kind: rateRevisionKindEnum('kind').notNull(),
    oldBuy: money('old_buy').notNull(),
    oldSell: money('old_sell').notNull(),
    buy: money('buy').notNull(),
    sell: money('sell').notNull(),
    reason: text('reason').notNull(),
    revisedBy: uuid('revised_by').references((): AnyPgColumn => accounts.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('rate_revisions_rate_revision_key').on(t.rateId, t.revision),
    index('rate_revisions_created_idx').on(t.createdAt.desc()),
  ],
);

/**
 * The rates every read serves: each record with its newest revision's figure, withdrawn ones left out. Reads go
 * through this view so a correction reaches the site, the paid API, history, candles and exports alike.
 */
export const servedRates = pgView('served_rates', {
  id: uuid('id').notNull(),
  market: marketEnum('market').notNull(),
  asset: assetEnum('asset').notNull(),
  base: baseEnum('base').notNull(),
  buy: money('buy').notNull(),
  sell: money('sell').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
  publicationId: uuid('publication_id'),
  source: rateSourceEnum('source').notNull(),
  publishedBy: uuid('published_by'),
  revision: integer('revision').notNull(),
}).as(
  sql`SELECT r.id, r.market, r.asset, r.base, coalesce(v.buy, r.buy) AS buy, coalesce(v.sell, r.sell) AS sell, r.created_at, coalesce(v.created_at, r.updated_at) AS updated_at, r.publication_id, r.source, r.published_by, coalesce(v.revision, 0) AS revision FROM rates r LEFT JOIN LATERAL (SELECT rv.buy, rv.sell, rv.created_at, rv.revision, rv.kind FROM rate_revisions rv WHERE rv.rate_id = r.id ORDER BY rv.revision DESC LIMIT 1) v ON true WHERE v.kind IS DISTINCT FROM 'withdrawal'`,
);

/** Every change an admin makes in the console, appended and never changed or deleted. */
export const adminActivity = pgTable(
  'admin_activity',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    adminId: uuid('admin_id').references((): AnyPgColumn => accounts.id, { onDelete: 'set null' }),
    adminEmail: text('admin_email').notNull(),
    kind: text('kind').notNull(),
    action: text('action').notNull(),
    target: text('target'),
    before: jsonb('before'),
    after: jsonb('after'),
    reason: text('reason'),
    createdAt: createdAt(),
  },
  (t) => [
    index('admin_activity_created_idx').on(t.createdAt.desc(), t.id.desc()),
    index('admin_activity_kind_idx').on(t.kind, t.createdAt.desc()),
  ],
);

// The official series: a central bank's reference figure for one pair on one business day, beside the three
// markets. A source that gives only a mid leaves buy and sell empty. One row per source, day and pair, so an import
// run twice adds nothing.
export const officialRates = pgTable(
  'official_rates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    source: officialSourceEnum('source').notNull(),
    rateDate: date('rate_date', { mode: 'string' }).notNull(),
    base: baseEnum('base').notNull(),
    asset: assetEnum('asset').notNull(),
    mid: money('mid').notNull(),
    buy: money('buy'),
    sell: money('sell'),
    importedAt: createdAt(),
  },
  (t) => [
    uniqueIndex('official_rates_source_day_pair_key').on(t.source, t.rateDate, t.base, t.asset),
    index('official_rates_pair_day_idx').on(t.base, t.asset, t.rateDate.desc()),
  ],
);

// Each official source's import, as the admins see it: when it last brought figures in and when it last failed, with
// why. One row per source, written by every attempt of the import (a retry too).
export const officialSourceStatus = pgTable('official_source_status', {
  source: officialSourceEnum('source').primaryKey(),
  lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true, mode: 'date' }),
  lastSuccessAt: timestamp('last_success_at', { withTimezone: true, mode: 'date' }),
  /** Figures the last successful attempt added (0 when it found nothing new, e.g. a holiday or a second run). */
  lastImported: integer('last_imported'),
  lastFailureAt: timestamp('last_failure_at', { withTimezone: true, mode: 'date' }),
  lastError: text('last_error'),
});

// A market still unpublished at its deadline: the admins are mailed once per market and day (in the publication
// time zone). The row is claimed before the mail and marked sent at the mail's commit point, so retries, restarts
// and several processes send it once.
export const publicationDeadlineMails = pgTable(
  'publication_deadline_mails',
  {
    market: marketEnum('market').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    deadline: text('deadline').notNull(),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [primaryKey({ columns: [t.market, t.day] })],
);

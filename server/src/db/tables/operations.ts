// The work the platform does on its own: rates mailings, tweets, the admins' settings and the embedded job queue.
import { sql } from 'drizzle-orm';
import {
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns';
import { mailingListSubscribers, accounts } from './accounts';

// A rates mailing records each recipient before the next batch goes out, so a retried job skips them.
export const rateMailings = pgTable('rate_mailings', {
  id: uuid('id').primaryKey().defaultRandom(),
  requestedBy: uuid('requested_by').references(() => accounts.id, { onDelete: 'set null' }),
  completedAt: timestamp('completed_at', { withTimezone: true, mode: 'date' }),
  createdAt: createdAt(),
});

export const rateMailingRecipients = pgTable(
  'rate_mailing_recipients',
  {
    mailingId: uuid('mailing_id')
      .notNull()
      .references(() => rateMailings.id, { onDelete: 'cascade' }),
    subscriberId: uuid('subscriber_id')
      .notNull()
      .references(() => mailingListSubscribers.id, { onDelete: 'cascade' }),
    sentAt: createdAt(),
  },
  (t) => [uniqueIndex('rate_mailing_recipients_uq').on(t.mailingId, t.subscriberId)],
);

// Admin settings, one row per setting; a setting with no row has its default (DEFAULT_ADMIN_SETTINGS in shared).
export const adminSettings = pgTable('admin_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: updatedAt(),
  updatedBy: uuid('updated_by').references(() => accounts.id),
});

export const rateTweets = pgTable('rate_tweets', {
  id: uuid('id').primaryKey().defaultRandom(),
  text: text('text').notNull(),
  // Null when no Twitter credentials are configured: the text is recorded, not posted.
  tweetId: text('tweet_id'),
  createdAt: createdAt(),
});

// Embedded mode's job queue (no Redis): each job is a row, so a crash loses none (README "Configuration").
// A claimed job holds a lease (locked_until) its process keeps extending; a job whose holder died is claimed again
// once the lease has passed. A job that fails for good stays, with its error, for inspection.
export const jobStateEnum = pgEnum('job_state', ['queued', 'running', 'done', 'failed']);

export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    data: jsonb('data').notNull(),
    // The job's name and the caller's jobId: enqueueing the same work twice keeps one row.
    dedupeKey: text('dedupe_key'),
    state: jobStateEnum('state').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    runAt: timestamp('run_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true, mode: 'date' }),
    lastError: text('last_error'),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('jobs_dedupe_key_uq').on(t.dedupeKey),
    index('jobs_unfinished_idx')
      .on(t.runAt)
      .where(sql`${t.state} in ('queued', 'running')`),
  ],
);

// What the admin sees of the jobs its actions start (SPEC §7 Admin, Emails screen): one row per run, written at
// enqueue and updated by the runner around each attempt, so a failure keeps its reason after the queue moved on.
export const jobRuns = pgTable(
  'job_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    state: jobStateEnum('state').notNull().default('queued'),
    progress: integer('progress').notNull().default(0),
    total: integer('total'),
    counts: jsonb('counts').$type<Record<string, number>>(),
    // Done, but not all it was asked (a tweet recorded, not posted): the admin sees this as a warning, not a success.
    warning: text('warning'),
    attempts: integer('attempts').notNull().default(0),
    error: text('error'),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('job_runs_name_created_idx').on(t.name, t.createdAt)],
);

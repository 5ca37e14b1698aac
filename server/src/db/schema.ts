// The whole domain of SPEC §3. Columns are snake_case; the services map rows to the spec's JSON names.
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgEnum,
  pgTable,
  pgView,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import {
  ALL_ENTITLEMENTS,
  ASSETS,
  BASES,
  MAIL_TYPES,
  MARKETS,
  OFFICIAL_SOURCES,
  PAYMENT_CURRENCIES,
  RATE_SOURCES,
  SUBSCRIPTION_STATUSES,
  WEBHOOK_DELIVERY_STATES,
  WEBHOOK_ENDPOINT_STATES,
  WEBHOOK_SIDES,
  type Entitlements,
  type WebhookDeliveryEvent,
  type WebhookEvent,
  type WebhookPair,
} from '@afrofx/shared';

export const marketEnum = pgEnum('market', MARKETS);
export const rateSourceEnum = pgEnum('rate_source', RATE_SOURCES);
export const rateRevisionKindEnum = pgEnum('rate_revision_kind', ['correction', 'withdrawal']);
export const assetEnum = pgEnum('asset', ASSETS);
export const baseEnum = pgEnum('base', BASES);
export const mailTypeEnum = pgEnum('mail_type', MAIL_TYPES);
export const accountRoleEnum = pgEnum('account_role', ['admin', 'developer']);
export const accountStatusEnum = pgEnum('account_status', ['active', 'disabled']);
export const accountStateEnum = pgEnum('account_state', ['normal_customer', 'premium_customer']);
export const accountTokenKindEnum = pgEnum('account_token_kind', ['activation', 'password_reset']);
export const subscriptionStatusEnum = pgEnum('subscription_status', SUBSCRIPTION_STATUSES);
export const paymentCurrencyEnum = pgEnum('payment_currency', PAYMENT_CURRENCIES);
export const transactionStatusEnum = pgEnum('transaction_status', ['pending', 'successful', 'failed']);

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
const money = (name: string) => numeric(name, { precision: 20, scale: 6, mode: 'number' });

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

export const mailingListSubscribers = pgTable(
  'mailing_list_subscribers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    mailType: mailTypeEnum('mail_type').notNull().default('mailing_list'),
    isActivated: boolean('is_activated').notNull().default(false),
    activatedAt: timestamp('activated_at', { withTimezone: true, mode: 'date' }),
    // The daily mail's preferences, set from its manage link; empty: every base, every market.
    bases: jsonb('bases').$type<Array<(typeof BASES)[number]>>().notNull().default([]),
    markets: jsonb('markets').$type<Array<(typeof MARKETS)[number]>>().notNull().default([]),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('mailing_list_email_type_uq').on(sql`lower(${t.email})`, t.mailType),
    index('mailing_list_type_created_idx').on(
      t.mailType,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
  ],
);

export const accounts = pgTable(
  'accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    role: accountRoleEnum('role').notNull(),
    status: accountStatusEnum('status').notNull().default('active'),
    state: accountStateEnum('state').notNull().default('normal_customer'),
    isActivated: boolean('is_activated').notNull().default(false),
    // Bumped on disable and password reset: tokens carry it, so older tokens stop working.
    tokenVersion: integer('token_version').notNull().default(0),
    // The inbox the address reaches (mailbox.ts), which the Free-plan rule counts by (null: an account made before it
    // was kept, or an admin's; its lower-cased address stands in).
    mailbox: text('mailbox'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('accounts_email_uq').on(sql`lower(${t.email})`),
    index('accounts_mailbox_idx').on(t.mailbox),
    index('accounts_role_created_idx').on(t.role, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
  ],
);

export const accountTokens = pgTable(
  'account_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    kind: accountTokenKindEnum('kind').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('account_tokens_hash_uq').on(t.tokenHash),
    index('account_tokens_account_idx').on(t.accountId),
  ],
);

export const apps = pgTable(
  'apps',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('apps_account_idx').on(t.accountId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('apps_created_idx').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
  ],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    appId: uuid('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    publicKey: text('public_key').notNull(),
    // Only a hash is kept: the private key is shown once (DESIGN §5).
    privateKeyHash: text('private_key_hash').notNull(),
    privateKeyLast4: text('private_key_last4').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('api_keys_app_uq').on(t.appId),
    uniqueIndex('api_keys_public_uq').on(t.publicKey),
    uniqueIndex('api_keys_private_hash_uq').on(t.privateKeyHash),
  ],
);

export const plans = pgTable(
  'plans',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    amount: money('amount').notNull(),
    numberOfRequest: integer('number_of_request').notNull(),
    // What the plan opens; a plan made before entitlements existed opens everything.
    entitlements: jsonb('entitlements').$type<Entitlements>().notNull().default(ALL_ENTITLEMENTS),
    // A new plan is a draft (null) until an admin puts it on sale; plans made before drafts existed are on sale.
    onSaleAt: timestamp('on_sale_at', { withTimezone: true, mode: 'date' }).defaultNow(),
    // Set when a plan with subscriptions or transactions is deleted: off sale, kept for their history.
    retiredAt: timestamp('retired_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // A retired plan's name may be given to a new plan.
    uniqueIndex('plans_name_uq')
      .on(sql`lower(${t.name})`)
      .where(sql`${t.retiredAt} is null`),
    index('plans_created_idx').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
  ],
);

export const planFeatures = pgTable(
  'plan_features',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    planId: uuid('plan_id')
      .notNull()
      .references(() => plans.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('plan_features_plan_idx').on(t.planId, t.createdAt)],
);

export const subscriptions = pgTable(
  'subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    appId: uuid('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    // A removed plan leaves its subscriptions running under the name they were bought with.
    planId: uuid('plan_id').references(() => plans.id, { onDelete: 'set null' }),
    planName: text('plan_name').notNull(),
    status: subscriptionStatusEnum('status').notNull(),
    requestLimit: integer('request_limit').notNull(),
    // The copy bought (null: bought before entitlements existed, and sold as opening everything).
    entitlements: jsonb('entitlements').$type<Entitlements>(),
    // Dollars a term as sold (0: a free plan; null: bought before this was kept). An upgrade credits from it.
    amount: money('amount'),
    processedRequests: integer('processed_requests').notNull().default(0),
    // Raised by every request counted or given back in PostgreSQL, and never lowered (a refund lowers the count,
    // not this): a count read with it tells the requests counted before the read from those after, which a count
    // alone cannot once a refund lowers it and a later request reaches the same number again.
    countChanges: bigint('count_changes', { mode: 'number' }).notNull().default(0),
    startsAt: timestamp('starts_at', { withTimezone: true, mode: 'date' }).notNull(),
    expireAt: timestamp('expire_at', { withTimezone: true, mode: 'date' }).notNull(),
    lastIncrement: timestamp('last_increment', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('subscriptions_app_status_idx').on(t.appId, t.status),
    index('subscriptions_created_idx').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
  ],
);

export const transactions = pgTable(
  'transactions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    appId: uuid('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    planId: uuid('plan_id').references(() => plans.id, { onDelete: 'set null' }),
    subscriptionId: uuid('subscription_id').references(() => subscriptions.id, { onDelete: 'set null' }),
    currency: paymentCurrencyEnum('currency').notNull(),
    amount: money('amount').notNull(),
    reference: text('reference').notNull(),
    provider: text('provider').notNull(),
    transactionStatus: transactionStatusEnum('transaction_status').notNull(),
    confirmedStatus: boolean('confirmed_status').notNull().default(false),
    isUpcoming: boolean('is_upcoming').notNull().default(false),
    // Every payment settled from now on owes its payer one receipt mail. Set in the settlement's own
    // transaction; cleared when the mail is committed to the mail server. Rows from before owe none.
    receiptMailDue: boolean('receipt_mail_due').notNull().default(false),
    receiptMailedAt: timestamp('receipt_mailed_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('transactions_receipt_due_idx')
      .on(t.createdAt)
      .where(sql`${t.receiptMailDue}`),
    // One transaction per provider reference: a replayed callback finds the existing row.
    uniqueIndex('transactions_reference_uq').on(t.provider, t.reference),
    index('transactions_app_created_idx').on(
      t.appId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('transactions_created_idx').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
  ],
);

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

// A plan bought is an order first (DESIGN §4): the server's own price in minor units (cents, kobo), a unique
// reference the provider is asked about, and an expiry. pending → paid once the provider confirms the payment
// (a conditional UPDATE, so it happens once); expired when it was never paid; failed when the provider refused it
// or was paid another amount.
// `held`: paid at the provider, but granting it would stack a second upcoming plan; an admin refunds or grants it.
export const orderStatusEnum = pgEnum('order_status', ['pending', 'paid', 'expired', 'failed', 'held']);

export const paymentOrders = pgTable(
  'payment_orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    reference: text('reference').notNull(),
    provider: text('provider').notNull(),
    /** The provider's id of the transaction the server initialized at this order's price (null until then). */
    providerTransactionId: text('provider_transaction_id'),
    appId: uuid('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    planId: uuid('plan_id').references(() => plans.id, { onDelete: 'set null' }),
    // The plan as it was sold: a later edit of the plan changes neither the price nor the quota bought.
    planName: text('plan_name').notNull(),
    requestLimit: integer('request_limit').notNull(),
    entitlements: jsonb('entitlements').$type<Entitlements>(),
    // Dollars a term as sold, and the credit of an upgrade's unused term (the amount charged is their difference).
    planAmount: money('plan_amount'),
    creditCents: integer('credit_cents').notNull().default(0),
    // An upgrade ends this subscription when it is paid.
    replacesSubscriptionId: uuid('replaces_subscription_id').references(() => subscriptions.id, {
      onDelete: 'set null',
    }),
    currency: paymentCurrencyEnum('currency').notNull(),
    amountMinor: bigint('amount_minor', { mode: 'number' }).notNull(),
    /** The SPEC §9 fee within amountMinor, for the receipt (null on orders made before it was kept). */
    feeMinor: bigint('fee_minor', { mode: 'number' }),
    usdRate: money('usd_rate'),
    isUpcoming: boolean('is_upcoming').notNull().default(false),
    status: orderStatusEnum('status').notNull().default('pending'),
    failureReason: text('failure_reason'),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('payment_orders_reference_uq').on(t.reference),
    uniqueIndex('payment_orders_provider_transaction_uq').on(t.provider, t.providerTransactionId),
    index('payment_orders_pending_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'pending'`),
  ],
);

// The sandbox provider's own books (PAYMENT_PROVIDER=sandbox): its transactions, as Basqet's `POST transaction`
// makes them, and their status.
export const sandboxTransactions = pgTable('sandbox_transactions', {
  id: text('id').primaryKey(),
  /** The merchant's `meta.reference`. */
  reference: text('reference').notNull(),
  email: text('email').notNull(),
  amount: text('amount').notNull(),
  currency: text('currency').notNull(),
  status: text('status').notNull(),
  createdAt: createdAt(),
});

// Usage warning mails (80 % and 100 % of a month's quota): one row per subscription, month of the term and
// threshold, written before the mail is queued, so each is sent once.
export const usageWarnings = pgTable(
  'usage_warnings',
  {
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    periodStart: timestamp('period_start', { withTimezone: true, mode: 'date' }).notNull(),
    percent: integer('percent').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.subscriptionId, t.periodStart, t.percent] })],
);

// Failed sign-ins per account (role and e-mail address, known or not, so the answer tells nothing), from
// any client address: after a few, each further attempt waits longer (modules/accounts/sign-in-slowdown.ts). Kept
// in the database so that every API process counts the same attempts.
export const signInFailures = pgTable(
  'sign_in_failures',
  {
    role: accountRoleEnum('role').notNull(),
    email: text('email').notNull(),
    failures: integer('failures').notNull(),
    lastFailureAt: timestamp('last_failure_at', { withTimezone: true, mode: 'date' }).notNull(),
    blockedUntil: timestamp('blocked_until', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    primaryKey({ columns: [t.role, t.email] }),
    index('sign_in_failures_last_failure_idx').on(t.lastFailureAt),
  ],
);

// Webhooks. The signing secret is kept whole: every delivery is signed with it. The API shows it
// only when it is made (creation, rotation).
export const webhookEndpointStateEnum = pgEnum('webhook_endpoint_state', WEBHOOK_ENDPOINT_STATES);

export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    appId: uuid('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    secret: text('secret').notNull(),
    events: jsonb('events').$type<WebhookEvent[]>().notNull(),
    // Empty: every market / every pair.
    markets: jsonb('markets').$type<Array<(typeof MARKETS)[number]>>().notNull().default([]),
    pairs: jsonb('pairs').$type<WebhookPair[]>().notNull().default([]),
    secretRotatedAt: timestamp('secret_rotated_at', { withTimezone: true, mode: 'date' }),
    // The secret a rotation replaced: deliveries are signed with it too until it expires (Stripe's overlap).
    previousSecret: text('previous_secret'),
    previousSecretExpiresAt: timestamp('previous_secret_expires_at', { withTimezone: true, mode: 'date' }),
    // One delivery in flight per endpoint. The delivery being sent and the lease of its sender: a sender
    // that died leaves a lease that passes, and the endpoint's next claim takes the delivery up again.
    sendingDeliveryId: uuid('sending_delivery_id'),
    sendingUntil: timestamp('sending_until', { withTimezone: true, mode: 'date' }),
    // The circuit: after repeated failed attempts in a row the endpoint is parked; its deliveries wait (kept) until
    // the developer resumes it or a trial attempt after the cool-down succeeds.
    state: webhookEndpointStateEnum('state').notNull().default('active'),
    consecutiveFailures: integer('consecutive_failures').notNull().default(0),
    parkedAt: timestamp('parked_at', { withTimezone: true, mode: 'date' }),
    parkedReason: text('parked_reason'),
    createdAt: createdAt(),
  },
  (t) => [index('webhook_endpoints_app_idx').on(t.appId, t.createdAt)],
);

export const webhookSideEnum = pgEnum('webhook_side', WEBHOOK_SIDES);
export const webhookPositionEnum = pgEnum('webhook_position', ['above', 'below']);

export const webhookThresholds = pgTable(
  'webhook_thresholds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    market: marketEnum('market').notNull(),
    base: baseEnum('base').notNull(),
    asset: assetEnum('asset').notNull(),
    side: webhookSideEnum('side').notNull(),
    level: money('level').notNull(),
    // The side of the level the price was on at the last rate entry: a crossing fires only when it changes.
    lastPosition: webhookPositionEnum('last_position'),
    createdAt: createdAt(),
  },
  (t) => [
    index('webhook_thresholds_pair_idx').on(t.market, t.base, t.asset),
    index('webhook_thresholds_endpoint_idx').on(t.endpointId),
  ],
);

// One row per event and endpoint, written in the same transaction as the rate that caused it (an outbox): a rate
// accepted while the queue is away keeps its deliveries, and the sweep job queues them when it is back.
export const webhookDeliveryStateEnum = pgEnum('webhook_delivery_state', WEBHOOK_DELIVERY_STATES);

export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey(),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    event: text('event').$type<WebhookDeliveryEvent>().notNull(),
    payload: jsonb('payload').notNull(),
    state: webhookDeliveryStateEnum('state').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    // A delivery being sent is leased: one whose sender died is taken up again once the lease has passed.
    lockedUntil: timestamp('locked_until', { withTimezone: true, mode: 'date' }),
    lastStatusCode: integer('last_status_code'),
    lastLatencyMs: real('last_latency_ms'),
    lastError: text('last_error'),
    deliveredAt: timestamp('delivered_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('webhook_deliveries_endpoint_created_idx').on(
      t.endpointId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('webhook_deliveries_unfinished_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.state} in ('pending', 'sending')`),
  ],
);

export const webhookDeliveryAttempts = pgTable(
  'webhook_delivery_attempts',
  {
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    statusCode: integer('status_code'),
    latencyMs: real('latency_ms').notNull(),
    error: text('error'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.deliveryId, t.attempt] })],
);

// Rate alerts for visitors: a condition on one market, pair and side, owned by an e-mail address (double opt-in:
// live once confirmed) or a Telegram chat (live at once: the chat asked for it itself).
export const rateAlertConditionEnum = pgEnum('rate_alert_condition', ['above', 'below', 'move']);

export const rateAlerts = pgTable(
  'rate_alerts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email'),
    chatId: bigint('chat_id', { mode: 'number' }),
    market: marketEnum('market').notNull(),
    base: baseEnum('base').notNull(),
    asset: assetEnum('asset').notNull(),
    side: webhookSideEnum('side').notNull(),
    condition: rateAlertConditionEnum('condition').notNull(),
    // The threshold (above, below) or the percentage (move).
    level: money('level').notNull(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true, mode: 'date' }),
    paused: boolean('paused').notNull().default(false),
    // Fires once per crossing: a threshold alert that fired is disarmed until the figure goes back past the
    // threshold by the re-arm margin.
    armed: boolean('armed').notNull().default(true),
    // The figure and time of the last publication evaluated (moves compare with it); an older publication
    // evaluated late is not applied over a newer one.
    lastFigure: money('last_figure'),
    lastPublishedAt: timestamp('last_published_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    // The evaluation's one pass: the live alerts of the pairs a publication changed.
    index('rate_alerts_live_pair_idx')
      .on(t.market, t.base, t.asset)
      .where(sql`${t.confirmedAt} is not null and not ${t.paused}`),
    index('rate_alerts_email_idx').on(sql`lower(${t.email})`),
    index('rate_alerts_chat_idx').on(t.chatId),
  ],
);

// One row per alert and publication that fired it: the outbox of alert messages. A retried evaluation finds the row
// and adds none; a retried send finds sent_at and sends nothing.
export const rateAlertFirings = pgTable(
  'rate_alert_firings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    alertId: uuid('alert_id')
      .notNull()
      .references(() => rateAlerts.id, { onDelete: 'cascade' }),
    publishedAt: timestamp('published_at', { withTimezone: true, mode: 'date' }).notNull(),
    figure: money('figure').notNull(),
    previousFigure: money('previous_figure'),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('rate_alert_firings_alert_publication_uq').on(t.alertId, t.publishedAt)],
);

// Telegram chats that talk to the bot; daily: the chat gets one message per publication.
export const telegramChats = pgTable('telegram_chats', {
  chatId: bigint('chat_id', { mode: 'number' }).primaryKey(),
  daily: boolean('daily').notNull().default(false),
  createdAt: createdAt(),
});

// Confirmation mails sent to one address for alerts: the form cannot be used to bomb an inbox.
export const rateAlertConfirmations = pgTable(
  'rate_alert_confirmations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    sentAt: createdAt(),
  },
  (t) => [index('rate_alert_confirmations_email_idx').on(sql`lower(${t.email})`, t.sentAt)],
);

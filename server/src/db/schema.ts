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
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  ALL_ENTITLEMENTS,
  ASSETS,
  BASES,
  MAIL_TYPES,
  MARKETS,
  PAYMENT_CURRENCIES,
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
  },
  (t) => [
    // Latest-per-pair lookups (fetch_rates, the paid API, history) walk this index backwards.
    index('rates_pair_created_idx').on(t.market, t.base, t.asset, t.createdAt.desc().nullsFirst()),
    index('rates_created_idx').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
  ],
);

export const mailingListSubscribers = pgTable(
  'mailing_list_subscribers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    mailType: mailTypeEnum('mail_type').notNull().default('mailing_list'),
    isActivated: boolean('is_activated').notNull().default(false),
    activatedAt: timestamp('activated_at', { withTimezone: true, mode: 'date' }),
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
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('accounts_email_uq').on(sql`lower(${t.email})`),
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
    // Issue 20: what the plan opens; a plan made before entitlements existed opens everything.
    entitlements: jsonb('entitlements').$type<Entitlements>().notNull().default(ALL_ENTITLEMENTS),
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
    // Issue 20: every payment settled from now on owes its payer one receipt mail. Set in the settlement's own
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

// Issue 21: failed sign-ins per account (role and e-mail address, known or not, so the answer tells nothing), from
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

// Webhooks (issue 10 point 4). The signing secret is kept whole: every delivery is signed with it. The API shows it
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
    // Issue 21: one delivery in flight per endpoint. The delivery being sent and the lease of its sender: a sender
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

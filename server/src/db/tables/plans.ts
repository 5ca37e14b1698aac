// Plans as sold, the subscriptions bought under them, their payments and usage warnings.
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { ALL_ENTITLEMENTS, type Entitlements } from '@afrofx/shared';
import { subscriptionStatusEnum, paymentCurrencyEnum, transactionStatusEnum } from './enums';
import { createdAt, updatedAt, money } from './columns';
import { accounts, apps } from './accounts';

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

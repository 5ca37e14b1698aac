// Accounts and what they own: their apps and keys, sign-in failures, and the mailing list's subscribers.
import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { BASES, MARKETS } from '@afrofx/shared';
import {
  mailTypeEnum,
  accountRoleEnum,
  accountStatusEnum,
  accountStateEnum,
  accountTokenKindEnum,
} from './enums';
import { createdAt, updatedAt } from './columns';

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

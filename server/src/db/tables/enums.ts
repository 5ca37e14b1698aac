// The enumerations several tables share: the pairs' markets, bases and assets, and the states of accounts,
// subscriptions and payments.
import { pgEnum } from 'drizzle-orm/pg-core';
import {
  ASSETS,
  BASES,
  MAIL_TYPES,
  MARKETS,
  PAYMENT_CURRENCIES,
  RATE_SOURCES,
  SUBSCRIPTION_STATUSES,
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

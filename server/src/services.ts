import type { ChangeFeed } from './change-feed';
import type { DatabaseHandle } from './db/client';
import type { Enqueue } from './jobs/enqueue';
import { createAccountsService } from './modules/accounts/accounts.service';
import { createAdminUsersService } from './modules/admin-users/admin-users.service';
import { createAppsService } from './modules/apps/apps.service';
import { createJobRunsService, enqueueWithRuns } from './modules/job-runs/job-runs.service';
import { createPaymentsService } from './modules/payments/payments.service';
import { createReceiptsService } from './modules/payments/receipts.service';
import type { PaymentProvider } from './modules/payments/payment-provider';
import { createPlansService } from './modules/plans/plans.service';
import { createRequestsService } from './modules/requests/requests.service';
import { createSubscriptionLifecycle } from './modules/subscriptions/subscription-lifecycle';
import { createSubscriptionsService } from './modules/subscriptions/subscriptions.service';
import { createRatesService } from './modules/rates/rates.service';
import { createSubscribersService } from './modules/subscribers/subscribers.service';
import { createWebhooksService } from './modules/webhooks/webhooks.service';
import type { WebhookSettings } from './config';

export function createServices(
  database: DatabaseHandle,
  enqueue: Enqueue,
  changes: ChangeFeed,
  paymentProvider: PaymentProvider,
  webhookSettings: WebhookSettings,
  companyAddress: string,
  freePlanAppsPerAccount = 1,
) {
  const db = database.db;
  const plans = createPlansService(db);
  const jobRuns = createJobRunsService(db);
  const enqueueRun = enqueueWithRuns(enqueue, jobRuns);
  const webhooks = createWebhooksService(db, enqueue, webhookSettings);
  const rates = createRatesService(db, enqueueRun, changes, webhooks);
  const subscriptions = createSubscriptionsService(db);
  const receipts = createReceiptsService(db, enqueue, { name: 'AfroFX', address: companyAddress });
  return {
    rates,
    webhooks,
    subscribers: createSubscribersService(db, enqueueRun),
    jobRuns,
    adminUsers: createAdminUsersService(db, changes),
    plans,
    accounts: createAccountsService(db, enqueue),
    apps: createAppsService(db, changes),
    requests: createRequestsService(db, database.pglite),
    subscriptions,
    receipts,
    subscriptionLifecycle: createSubscriptionLifecycle(db, changes),
    payments: createPaymentsService({
      db,
      provider: paymentProvider,
      changes,
      enqueue,
      plans,
      rates,
      subscriptions,
      receipts,
      freePlanAppsPerAccount,
    }),
  };
}

export type Services = ReturnType<typeof createServices>;

import type { ChangeFeed } from './change-feed';
import type { DatabaseHandle } from './db/client';
import type { Enqueue } from './queue/enqueue';
import { createAccountsService } from './modules/accounts/accounts.service';
import { createAlertsService } from './modules/alerts/alerts.service';
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
import { createRatesCsvService } from './modules/rates/rates-csv.service';
import { createRatesTweetService } from './modules/rates/rates-tweet.service';
import { createDeskService } from './modules/rates/desk.service';
import { createActivityService } from './modules/activity/activity.service';
import { createSettingsService } from './modules/settings/settings.service';
import { createSubscribersService } from './modules/subscribers/subscribers.service';
import { createTelegramChatsService } from './modules/telegram/telegram-chats.service';
import { createWebhooksService } from './modules/webhooks/webhooks.service';
import { createOfficialRatesService } from './modules/official-rates/official-rates.service';
import { createOfficialImportService } from './modules/official-rates/official-import.service';
import { createRateStatusService } from './modules/rate-status/rate-status.service';
import type { OfficialSourceSettings, WebhookSettings } from './config';

export function createServices(
  database: DatabaseHandle,
  enqueue: Enqueue,
  changes: ChangeFeed,
  paymentProvider: PaymentProvider,
  webhookSettings: WebhookSettings,
  companyAddress: string,
  freePlanAppsPerAccount: number,
  officialSources: OfficialSourceSettings,
) {
  const db = database.db;
  const plans = createPlansService(db);
  const jobRuns = createJobRunsService(db);
  const enqueueRun = enqueueWithRuns(enqueue, jobRuns);
  const webhooks = createWebhooksService(db, enqueue, webhookSettings);
  const rates = createRatesService(db);
  const settings = createSettingsService(db);
  const desk = createDeskService({ db, changes, webhooks, settings, enqueue });
  const subscriptions = createSubscriptionsService(db);
  const officialImport = createOfficialImportService(db, enqueue, officialSources);
  const receipts = createReceiptsService(db, enqueue, { name: 'AfroFX', address: companyAddress });
  return {
    rates,
    ratesCsv: createRatesCsvService(db, enqueueRun),
    ratesTweet: createRatesTweetService(db, enqueueRun, rates),
    desk,
    activity: createActivityService(db),
    settings,
    officialImport,
    officialRates: createOfficialRatesService(db),
    rateStatus: createRateStatusService(db, settings, officialImport),
    webhooks,
    alerts: createAlertsService(db, enqueue),
    telegramChats: createTelegramChatsService(db, enqueue),
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

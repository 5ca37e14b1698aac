import type { ChangeFeed } from './change-feed';
import type { DatabaseHandle } from './db/client';
import type { EnqueueOptions } from './jobs/queue';
import type { JobData, JobName } from './jobs/job-types';
import { createAccountsService } from './modules/accounts/accounts.service';
import { createAdminUsersService } from './modules/admin-users/admin-users.service';
import { createAppsService } from './modules/apps/apps.service';
import { createPlansService } from './modules/plans/plans.service';
import { createRequestsService } from './modules/requests/requests.service';
import { createSubscriptionsService } from './modules/subscriptions/subscriptions.service';
import { createRatesService } from './modules/rates/rates.service';
import { createSubscribersService } from './modules/subscribers/subscribers.service';

export type Enqueue = <N extends JobName>(
  name: N,
  data: JobData<N>,
  options?: EnqueueOptions,
) => Promise<void>;

export function createServices(database: DatabaseHandle, enqueue: Enqueue, changes: ChangeFeed) {
  const db = database.db;
  return {
    rates: createRatesService(db, enqueue, changes),
    subscribers: createSubscribersService(db, enqueue),
    adminUsers: createAdminUsersService(db, changes),
    plans: createPlansService(db),
    accounts: createAccountsService(db, enqueue),
    apps: createAppsService(db, changes),
    requests: createRequestsService(db, database.pglite),
    subscriptions: createSubscriptionsService(db),
  };
}

export type Services = ReturnType<typeof createServices>;

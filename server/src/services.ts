import type { Database } from './db/client';
import type { EnqueueOptions } from './jobs/queue';
import type { JobData, JobName } from './jobs/job-types';
import { createAdminUsersService } from './modules/admin-users/admin-users.service';
import { createPlansService } from './modules/plans/plans.service';
import { createRatesService } from './modules/rates/rates.service';
import { createSubscribersService } from './modules/subscribers/subscribers.service';

export type Enqueue = <N extends JobName>(name: N, data: JobData<N>, options?: EnqueueOptions) => Promise<void>;

export function createServices(db: Database, enqueue: Enqueue) {
  return {
    rates: createRatesService(db, enqueue),
    subscribers: createSubscribersService(db, enqueue),
    adminUsers: createAdminUsersService(db),
    plans: createPlansService(db),
  };
}

export type Services = ReturnType<typeof createServices>;

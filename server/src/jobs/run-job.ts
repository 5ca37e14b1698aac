import { accountMailJob } from './account-mail.job';
import type { JobContext } from './job-context';
import type { Job } from './job-types';
import { paymentReconcileJob } from './payment-reconcile.job';
import type { JobRunner } from './queue';
import { ratesCsvJob } from './rates-csv.job';
import { ratesMailJob } from './rates-mail.job';
import { ratesTweetJob } from './rates-tweet.job';
import { subscriptionConfirmationMailJob } from './subscription-confirmation-mail.job';
import { subscriptionLifecycleJob } from './subscription-lifecycle.job';

export function jobRunner(ctx: JobContext): JobRunner {
  return async (job: Job) => {
    switch (job.name) {
      case 'subscription-confirmation-mail':
        return subscriptionConfirmationMailJob(ctx, job.data);
      case 'account-mail':
        return accountMailJob(ctx, job.data);
      case 'rates-mail':
        return ratesMailJob(ctx, job.data);
      case 'rates-csv':
        return ratesCsvJob(ctx, job.data);
      case 'rates-tweet':
        return ratesTweetJob(ctx, job.data);
      case 'payment-reconcile':
        return paymentReconcileJob(ctx, job.data);
      case 'subscription-lifecycle':
        return subscriptionLifecycleJob(ctx);
    }
  };
}

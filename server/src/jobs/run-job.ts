import { ADMIN_JOB_NAMES, type AdminJobName } from '@afrofx/shared';
import { accountMailJob } from './account-mail.job';
import { dailyRatesMailJob } from './daily-rates-mail.job';
import type { JobContext, JobCounts } from './job-context';
import type { Job } from '../queue/job-types';
import { officialImportJob, officialImportsJob } from './official-import.job';
import { paymentReconcileJob } from './payment-reconcile.job';
import { paymentSweepJob } from './payment-sweep.job';
import type { JobRunner } from '../queue/queue';
import { rateAlertConfirmationMailJob, rateAlertMailJob } from './rate-alert-mail.job';
import { rateAlertsJob, rateAlertsSweepJob } from './rate-alerts.job';
import { telegramMessageJob } from './telegram-message.job';
import { ratesCsvJob } from './rates-csv.job';
import { ratesMailJob } from './rates-mail.job';
import { ratesTweetJob } from './rates-tweet.job';
import { publicationDeadlinesJob } from './publication-deadlines.job';
import { receiptMailJob } from './receipt-mail.job';
import { requestLogRetentionJob } from './request-log-retention.job';
import { subscriptionConfirmationMailJob } from './subscription-confirmation-mail.job';
import { subscriptionLifecycleJob } from './subscription-lifecycle.job';
import { webhookDeliveryJob } from './webhook-delivery.job';
import { webhookSweepJob } from './webhook-sweep.job';

type AdminJob = Extract<Job, { name: AdminJobName }>;

const isAdminJob = (job: Job): job is AdminJob => (ADMIN_JOB_NAMES as readonly string[]).includes(job.name);

async function perform(ctx: JobContext, job: Job): Promise<JobCounts | void> {
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
    case 'receipt-mail':
      return receiptMailJob(ctx, job.data);
    case 'subscription-lifecycle':
      return subscriptionLifecycleJob(ctx);
    case 'payment-sweep':
      return paymentSweepJob(ctx);
    case 'daily-rates-mail':
      return dailyRatesMailJob(ctx);
    case 'webhook-delivery':
      return webhookDeliveryJob(ctx, job.data);
    case 'webhook-sweep':
      return webhookSweepJob(ctx);
    case 'request-log-retention':
      return requestLogRetentionJob(ctx);
    case 'official-imports':
      return officialImportsJob(ctx);
    case 'official-import':
      return officialImportJob(ctx, job.data);
    case 'publication-deadlines':
      return publicationDeadlinesJob(ctx);
    case 'rate-alert-confirmation-mail':
      return rateAlertConfirmationMailJob(ctx, job.data);
    case 'rate-alerts':
      return rateAlertsJob(ctx, job.data);
    case 'rate-alerts-sweep':
      return rateAlertsSweepJob(ctx);
    case 'rate-alert-mail':
      return rateAlertMailJob(ctx, job.data);
    case 'telegram-message':
      return telegramMessageJob(ctx, job.data);
  }
}

/**
 * The one entry both queue drivers call. An admin job's attempt is recorded on its run (running, then done with its
 * counts or failed with the reason) and the error is rethrown, so the queue still retries it.
 */
export function jobRunner(ctx: JobContext): JobRunner {
  const runs = ctx.services.jobRuns;
  return async (job: Job) => {
    if (!isAdminJob(job)) {
      await perform(ctx, job);
      return;
    }
    // A scheduled run was not enqueued through a service, so it has no row yet.
    const runId = job.data.runId ?? (await runs.create(job.name));
    await runs.start(runId);
    let counts: JobCounts | void;
    let warning: string | null = null;
    const progress = (done: number, total: number) => runs.progress(runId, done, total);
    try {
      counts = await perform({ ...ctx, progress, warn: (message) => (warning = message) }, job);
    } catch (err) {
      await runs.fail(runId, err instanceof Error ? err.message : String(err));
      throw err;
    }
    await runs.finish(runId, counts ?? {}, warning);
  };
}

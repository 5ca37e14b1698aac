// The jobs that run by the clock (DESIGN §4 lifecycle, hourly; the payment order sweep, every 10 minutes; the webhook sweep, every minute; the daily rates
// e-mail; the request log's partitions, hourly; the official rates' import, hourly; the publication deadlines and the alerts outbox, every minute). Started where jobs are consumed: the worker process with Redis, the API process without it (or with
// RUN_WORKER_IN_API). Each schedule exists once however many of those processes start (see JobQueue.schedule).
import type { Config } from '../config';
import type { JobQueue, Log, Schedule } from '../queue/queue';
import { OFFICIAL_IMPORTS_EVERY_MS } from './official-import.job';
import { PAYMENT_SWEEP_EVERY_MS } from './payment-sweep.job';
import { PUBLICATION_DEADLINES_EVERY_MS } from './publication-deadlines.job';
import { RATE_ALERTS_SWEEP_EVERY_MS } from './rate-alerts.job';
import { REQUEST_LOG_RETENTION_EVERY_MS } from './request-log-retention.job';
import { LIFECYCLE_EVERY_MS } from './subscription-lifecycle.job';
import { WEBHOOK_SWEEP_EVERY_MS } from './webhook-sweep.job';

export function schedules(config: Pick<Config, 'ratesMail'>): Schedule[] {
  return [
    { name: 'subscription-lifecycle', data: {}, everyMs: LIFECYCLE_EVERY_MS },
    { name: 'payment-sweep', data: {}, everyMs: PAYMENT_SWEEP_EVERY_MS },
    { name: 'webhook-sweep', data: {}, everyMs: WEBHOOK_SWEEP_EVERY_MS },
    { name: 'daily-rates-mail', data: {}, daily: config.ratesMail },
    { name: 'request-log-retention', data: {}, everyMs: REQUEST_LOG_RETENTION_EVERY_MS },
    { name: 'official-imports', data: {}, everyMs: OFFICIAL_IMPORTS_EVERY_MS },
    { name: 'publication-deadlines', data: {}, everyMs: PUBLICATION_DEADLINES_EVERY_MS },
    { name: 'rate-alerts-sweep', data: {}, everyMs: RATE_ALERTS_SWEEP_EVERY_MS },
  ];
}

/** Starts every schedule; one that cannot start is logged and does not keep the others from starting. */
export async function startSchedules(queue: JobQueue, log: Log, toStart: Schedule[]): Promise<void> {
  for (const schedule of toStart) {
    try {
      await queue.schedule(schedule);
      log.info(
        { job: schedule.name, ...('everyMs' in schedule ? { everyMs: schedule.everyMs } : schedule.daily) },
        'job scheduled',
      );
    } catch (err) {
      log.error({ err, job: schedule.name }, 'could not schedule a job');
    }
  }
}

// The request log's lifetime (REQUEST_LOG_RETENTION_DAYS): drops the days past the retention, whole partitions
// whose daily roll-ups are kept, and creates the partitions of the days ahead. Idempotent: a run cut off anywhere
// leaves the table whole and the next run completes the work.
import type { JobContext } from './job-context';

/** Hourly: a new UTC day's retirement waits at most an hour, and a failed run is tried again soon. */
export const REQUEST_LOG_RETENTION_EVERY_MS = 60 * 60 * 1000;

export async function requestLogRetentionJob(
  ctx: Pick<JobContext<'requests'>, 'services' | 'log' | 'config' | 'now'>,
): Promise<void> {
  const now = new Date(ctx.now?.() ?? Date.now());
  const { created, dropped } = await ctx.services.requests.maintainPartitions(
    ctx.config.requestLogRetentionDays,
    now,
  );
  if (created.length > 0 || dropped.length > 0) {
    ctx.log.info({ created, dropped }, 'request log partitions maintained');
  }
}

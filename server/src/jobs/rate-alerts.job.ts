// One publication's alerts and daily Telegram messages: evaluated once, each message then queued on its own.
import type { JobContext, JobCounts } from './job-context';
import type { JobData } from '../queue/job-types';
import { publicationMessage } from '../modules/telegram/bot-replies';

/** The alerts outbox is swept every minute: a publication's alerts wait at most that long for a queue that was away. */
export const RATE_ALERTS_SWEEP_EVERY_MS = 60_000;

export async function rateAlertsSweepJob(
  ctx: JobContext<'alerts' | 'desk' | 'telegramChats'>,
): Promise<void> {
  const queued = await ctx.services.desk.sweepAlertsOutbox();
  if (queued > 0) ctx.log.info({ publications: queued }, 'alerts of publications queued from the outbox');
}

export async function rateAlertsJob(
  ctx: JobContext<'alerts' | 'desk' | 'telegramChats'>,
  { publishedAt, rates }: JobData<'rate-alerts'>,
): Promise<JobCounts> {
  const fired = await ctx.services.alerts.evaluate({ publishedAt: new Date(publishedAt), rates });
  const daily = ctx.config.telegram
    ? await ctx.services.telegramChats.queuePublication(publishedAt, publicationMessage(publishedAt, rates))
    : 0;
  return { fired, daily };
}

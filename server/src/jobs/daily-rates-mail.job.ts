// The daily rates e-mail (SPEC §6): the same mailing as the admin's Send Rates Mail, started by the clock at
// RATES_MAIL_AT. One mailing per day on that time zone's calendar: its id is derived from the date, so a retried run,
// or a run stored by two processes, finds the day's mailing instead of starting a second one.
import { createHash } from 'node:crypto';
import { latestDailyRun, localDate } from '../queue/daily-time';
import type { JobContext, JobCounts } from './job-context';

/** A UUID (RFC 9562 version 8, name-based) for the mailing of one calendar date. */
export function dailyMailingId(date: string): string {
  const bytes = createHash('sha256').update(`afrofx daily rates mail ${date}`).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x80;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export async function dailyRatesMailJob(ctx: JobContext<'subscribers'>): Promise<JobCounts> {
  const daily = ctx.config.ratesMail;
  // The run this one belongs to, even when it starts late or is a retry minutes after the scheduled time.
  const date = localDate(daily.timeZone, latestDailyRun(daily, (ctx.now ?? Date.now)()));
  const recipients = await ctx.services.subscribers.startRatesMailing(null, dailyMailingId(date));
  ctx.log.info({ date, recipients }, 'daily rates mail started');
  return { recipients };
}

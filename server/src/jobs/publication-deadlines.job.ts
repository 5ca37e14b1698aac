// Nobody misses a morning: every minute, a market past its publication deadline with nothing published today mails
// the admins (once per market and day; see rate-status.service.ts for how that holds across retries and processes).
import type { JobContext } from './job-context';

export const PUBLICATION_DEADLINES_EVERY_MS = 60_000;

export async function publicationDeadlinesJob(ctx: JobContext<'rateStatus'>): Promise<void> {
  const mailed = await ctx.services.rateStatus.mailOverdueMarkets(
    ctx.mailer,
    ctx.config.publicUrl,
    (ctx.now ?? Date.now)(),
  );
  if (mailed.length > 0) ctx.log.info({ markets: mailed }, 'admins told of markets past their deadline');
}

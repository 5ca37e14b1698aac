import type { JobContext } from './job-context';
import type { JobData } from './job-types';
import { ratesMail } from '../mail/templates';

const BATCH_SIZE = 50;

export async function ratesMailJob(ctx: JobContext, { mailingId }: JobData<'rates-mail'>): Promise<void> {
  const rates = await ctx.services.rates.latestForAllMarkets();
  const content = ratesMail(rates, ctx.config.publicUrl);
  for (;;) {
    // Recipients already recorded for this mailing are skipped, so a retried job never mails anyone twice.
    const batch = await ctx.services.subscribers.pendingRecipients(mailingId, BATCH_SIZE);
    if (batch.length === 0) break;
    for (const subscriber of batch) {
      await ctx.mailer.send({ to: subscriber.email, ...content });
      await ctx.services.subscribers.recordRecipient(mailingId, subscriber.id);
    }
  }
  await ctx.services.subscribers.completeMailing(mailingId);
}

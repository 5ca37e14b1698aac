import type { JobContext, JobCounts } from './job-context';
import type { JobData } from './job-types';
import { ratesMail } from '../mail/templates';

const BATCH_SIZE = 50;

export async function ratesMailJob(
  ctx: JobContext,
  { mailingId }: JobData<'rates-mail'>,
): Promise<JobCounts | void> {
  // A job that reached Redis after its enqueue had already answered 503 finds its mailing withdrawn.
  if (!(await ctx.services.subscribers.isMailingOpen(mailingId))) return;
  const rates = await ctx.services.rates.latestForAllMarkets();
  const content = ratesMail(rates, ctx.config.publicUrl);
  let sent = 0;
  for (;;) {
    const progress = await ctx.services.subscribers.mailingProgress(mailingId);
    sent = progress.sent;
    await ctx.progress?.(progress.sent, progress.total);
    // Recipients already recorded for this mailing are skipped, so a retried job never mails anyone twice.
    const batch = await ctx.services.subscribers.pendingRecipients(mailingId, BATCH_SIZE);
    if (batch.length === 0) break;
    for (const subscriber of batch) {
      // Sent, then recorded: a crash between the two resends this one message, and its fixed Message-ID shows it is
      // the same one.
      await ctx.mailer.send({
        to: subscriber.email,
        ...content,
        messageId: `<rates-${mailingId}-${subscriber.id}@afrofx>`,
      });
      await ctx.services.subscribers.recordRecipient(mailingId, subscriber.id);
    }
  }
  await ctx.services.subscribers.completeMailing(mailingId);
  return { sent };
}

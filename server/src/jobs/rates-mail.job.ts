import type { Base, Market, Rate } from '@afrofx/shared';
import type { JobContext, JobCounts } from './job-context';
import type { JobData } from '../queue/job-types';
import { ratesMail } from '../mail/templates';
import { unsubscribeToken } from '../modules/subscribers/unsubscribe-token';
import { manageToken } from '../modules/alerts/alert-links';

const BATCH_SIZE = 50;

/** The reader's preferences, set from the mail's manage link: empty lists mean every base or market. */
const chosenRates = (rates: Rate[], { bases, markets }: { bases: Base[]; markets: Market[] }) =>
  rates.filter(
    (r) =>
      (bases.length === 0 || bases.includes(r.base)) && (markets.length === 0 || markets.includes(r.market)),
  );

export async function ratesMailJob(
  ctx: JobContext<'rates' | 'subscribers'>,
  { mailingId }: JobData<'rates-mail'>,
): Promise<JobCounts | void> {
  // A job that reached Redis after its enqueue had already answered 503 finds its mailing withdrawn.
  if (!(await ctx.services.subscribers.isMailingOpen(mailingId))) return;
  const rates = await ctx.services.rates.latestForAllMarkets();
  const { publicUrl, jwtSecret, ratesMail: daily } = ctx.config;
  // MAIL_FROM is 'Name <address>' or a bare address.
  const replyAddress = ctx.config.mailFrom.replace(/^.*<|>.*$/g, '');
  let sent = 0;
  for (;;) {
    const progress = await ctx.services.subscribers.mailingProgress(mailingId);
    sent = progress.sent;
    await ctx.progress?.(progress.sent, progress.total);
    // Recipients already recorded for this mailing are skipped, so a retried job never mails anyone twice.
    const batch = await ctx.services.subscribers.pendingRecipients(mailingId, BATCH_SIZE);
    if (batch.length === 0) break;
    for (const subscriber of batch) {
      const token = unsubscribeToken(jwtSecret, subscriber.id);
      let recorded = false;
      try {
        await ctx.mailer.send(
          {
            to: subscriber.email,
            ...ratesMail(
              chosenRates(rates, subscriber),
              publicUrl,
              `${publicUrl}/unsubscribe/${token}`,
              daily.timeZone,
              new Date(),
              `${publicUrl}/alerts/manage/${manageToken(jwtSecret, subscriber.email)}`,
            ),
            // Should a crash ever fall between record and dot, a resent message is recognisably the same one.
            messageId: `<rates-${mailingId}-${subscriber.id}@afrofx>`,
            // RFC 2369 and RFC 8058: mail clients show an unsubscribe button whose POST takes this address off at once.
            headers: {
              'List-Unsubscribe': `<${publicUrl}/v1/user/unsubscribe/${token}>, <mailto:${replyAddress}?subject=unsubscribe%20${token}>`,
              'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
            },
          },
          // Recorded as the message is committed, so a worker killed at any point neither skips nor repeats it.
          async (release) => {
            await ctx.services.subscribers.recordRecipient(mailingId, subscriber.id, release);
            recorded = true;
          },
        );
      } catch (err) {
        if (recorded) await ctx.services.subscribers.forgetRecipient(mailingId, subscriber.id);
        throw err;
      }
      // A mailer that never records would have this loop mail the same batch for ever.
      if (!recorded) throw new Error('the mailer sent a rates mail without recording its recipient');
    }
  }
  await ctx.services.subscribers.completeMailing(mailingId);
  return { sent };
}

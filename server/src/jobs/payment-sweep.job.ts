// The order sweep (DESIGN §4): settles pending payment orders with the provider (a payment whose browser and webhook
// both went missing is still granted, or held) and voids those past their expiry that the provider never saw paid;
// and queues every receipt mail still owed after the queue's own retries.
// Idempotent: a second run finds nothing more to do.
import type { JobContext } from './job-context';

/** Orders live 30 minutes; a sweep every 10 catches a lost confirmation soon after the customer paid. */
export const PAYMENT_SWEEP_EVERY_MS = 10 * 60 * 1000;

export async function paymentSweepJob(
  ctx: Pick<JobContext<'payments' | 'receipts'>, 'services' | 'log'>,
  now = new Date(),
): Promise<void> {
  const orders = await ctx.services.payments.sweepPending(now);
  const receipts = await ctx.services.receipts.sweep(now);
  ctx.log.info({ ...orders, receipts }, 'payment orders swept');
}

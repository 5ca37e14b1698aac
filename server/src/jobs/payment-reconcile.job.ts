import type { JobContext } from './job-context';
import type { JobData } from '../queue/job-types';

/** Re-verifies one order the provider could not answer about; throws while it still cannot, so the queue retries. */
export async function paymentReconcileJob(
  ctx: JobContext<'payments'>,
  { reference }: JobData<'payment-reconcile'>,
) {
  const outcome = await ctx.services.payments.reconcile(reference);
  ctx.log.info({ reference, outcome }, 'payment reconciled');
}

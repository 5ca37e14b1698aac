// Queues the webhook deliveries that are due and that no job carries: those recorded while the queue was away,
// retries whose job was lost, and attempts whose sender died.
import type { JobContext } from './job-context';

export const WEBHOOK_SWEEP_EVERY_MS = 60 * 1000;

export async function webhookSweepJob(ctx: JobContext<'webhooks'>): Promise<void> {
  const queued = await ctx.services.webhooks.sweep();
  if (queued > 0) ctx.log.info({ queued }, 'webhook sweep queued deliveries');
}

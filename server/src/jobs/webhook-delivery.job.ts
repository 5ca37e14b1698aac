// One attempt of one webhook delivery. A failed attempt is not thrown: the webhooks service records it and queues
// the next attempt with its own backoff (24 hours), which the queue's few quick retries could not give.
import type { JobContext } from './job-context';

export async function webhookDeliveryJob(ctx: JobContext, data: { deliveryId: string }): Promise<void> {
  await ctx.services.webhooks.deliver(data.deliveryId);
}

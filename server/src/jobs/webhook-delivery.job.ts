// One attempt of the next due delivery of one endpoint. A failed attempt is not thrown: the webhooks service records
// it and queues the next attempt with its own backoff (24 hours), which the queue's few quick retries could not give.
// A job queued before deliveries were sent per endpoint names a delivery: the sweep sends those.
import type { JobContext } from './job-context';

export async function webhookDeliveryJob(
  ctx: JobContext<'webhooks'>,
  data: { endpointId?: string },
): Promise<void> {
  if (data.endpointId) await ctx.services.webhooks.deliverNext(data.endpointId);
}

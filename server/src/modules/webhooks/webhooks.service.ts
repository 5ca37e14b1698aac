// Webhooks: endpoints per app (endpoints.ts), the deliveries a rate entry causes (rate-events.ts), and their sending
// (delivery.ts).
import type { WebhookSettings } from '../../settings';
import type { Database } from '../../db/client';
import type { Enqueue } from '../../queue/enqueue';
import { createDelivery } from './delivery';
import { createEndpoints } from './endpoints';
import { createRateEvents } from './rate-events';

export function createWebhooksService(db: Database, enqueue: Enqueue, settings: WebhookSettings) {
  const { dispatch, wakeAccountOf, deliverNext, sweep } = createDelivery(db, enqueue, settings);
  return {
    ...createEndpoints(db, settings, { dispatch, wakeAccountOf }),
    ...createRateEvents(),
    dispatch,
    deliverNext,
    sweep,
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;

// Issue 21: no tenant's traffic may delay another tenant's or the platform's work. Jobs run in lanes, each with its
// own concurrency (and, with BullMQ, its own queue and worker):
// - platform: account and subscriber mail, admin mailings and exports, payments, schedules. The work a person or
//   the platform waits on; never behind a customer's receiver.
// - webhooks: deliveries to customers' receivers, which may hang for the whole timeout. A receiver that never
//   answers fills only this lane, and only a little of it: one delivery in flight per endpoint, a few per app
//   (WEBHOOK_APP_IN_FLIGHT), and the endpoint is parked after a run of failures (webhooks.service.ts). Its
//   concurrency is higher than the platform's because an attempt mostly waits on a socket.
import type { JobName } from './job-types';

export type Lane = 'platform' | 'webhooks';

export const LANES: Record<Lane, { queue: string; concurrency: number }> = {
  platform: { queue: 'afrofx-jobs', concurrency: 4 },
  webhooks: { queue: 'afrofx-webhooks', concurrency: 16 },
};

/** The jobs of the webhooks lane; every other job is the platform's. */
export const WEBHOOK_LANE_JOBS: readonly JobName[] = ['webhook-delivery'];

export const laneOf = (name: JobName): Lane => (WEBHOOK_LANE_JOBS.includes(name) ? 'webhooks' : 'platform');

// Issue 21: no tenant's traffic may delay another tenant's or the platform's work. Jobs run in lanes, each with its
// own concurrency (and, with BullMQ, its own queue and worker):
// - platform: account and subscriber mail, admin mailings and exports, payments, schedules. The work a person or
//   the platform waits on; never behind a customer's receiver.
// - webhooks: deliveries to customers' receivers, which may hang for the whole timeout. A receiver that never
//   answers fills only this lane.
import type { JobName } from './job-types';

export type Lane = 'platform' | 'webhooks';

export const LANES: Record<Lane, { queue: string; concurrency: number }> = {
  platform: { queue: 'afrofx-jobs', concurrency: 4 },
  webhooks: { queue: 'afrofx-webhooks', concurrency: 4 },
};

/** The jobs of the webhooks lane; every other job is the platform's. */
export const WEBHOOK_LANE_JOBS: readonly JobName[] = ['webhook-delivery'];

export const laneOf = (name: JobName): Lane => (WEBHOOK_LANE_JOBS.includes(name) ? 'webhooks' : 'platform');

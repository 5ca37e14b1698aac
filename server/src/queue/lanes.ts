// No tenant's traffic may delay another tenant's or the platform's work. Jobs run in lanes, each with its
// own concurrency (and, with BullMQ, its own queue and worker):
// - platform: account and subscriber mail, admin mailings and exports, payments, schedules. The work a person or
//   the platform waits on; never behind a customer's receiver.
// - webhooks: deliveries to customers' receivers, which may hang for the whole timeout. A receiver that never
//   answers fills only this lane, and only a little of it: one delivery in flight per endpoint, a few per app
//   (WEBHOOK_APP_IN_FLIGHT) and per account (WEBHOOK_ACCOUNT_IN_FLIGHT), accounts take turns (webhook-claim.ts),
//   and the endpoint is parked after a run of failures (webhooks/delivery.ts). Its
//   concurrency is higher than the platform's because an attempt mostly waits on a socket.
// - alerts: rate-alert mails; a publication that crosses thousands of alerts never delays account mail.
// - telegram: the bot's messages, paced by Telegram's limits (a 429 waits its retry_after inside the job).
import type { JobName } from './job-types';

export type Lane = 'platform' | 'webhooks' | 'alerts' | 'telegram';

export const LANES: Record<Lane, { queue: string; concurrency: number }> = {
  platform: { queue: 'afrofx-jobs', concurrency: 4 },
  webhooks: { queue: 'afrofx-webhooks', concurrency: 16 },
  alerts: { queue: 'afrofx-alerts', concurrency: 2 },
  telegram: { queue: 'afrofx-telegram', concurrency: 2 },
};

/** The jobs of each lane but the platform's; every other job is the platform's. */
export const LANE_JOBS: Record<Exclude<Lane, 'platform'>, readonly JobName[]> = {
  webhooks: ['webhook-delivery'],
  alerts: ['rate-alert-mail'],
  telegram: ['telegram-message'],
};

export const NON_PLATFORM_JOBS: readonly JobName[] = Object.values(LANE_JOBS).flat();

export const laneOf = (name: JobName): Lane =>
  (Object.keys(LANE_JOBS) as Array<keyof typeof LANE_JOBS>).find((lane) => LANE_JOBS[lane].includes(name)) ??
  'platform';

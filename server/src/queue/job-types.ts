import type { Asset, Base, Market, OfficialSource } from '@afrofx/shared';

/** One pair's new figures in a publication. */
export interface PublishedRate {
  market: Market;
  base: Base;
  asset: Asset;
  buy: number;
  sell: number;
}

/** The job_runs row an admin-visible job reports to; set at enqueue, absent on scheduled runs (made at start). */
export interface RunRef {
  runId?: string;
}

// Every job the queue carries, as one discriminated union (STYLE: queue payloads in one file).
export type Job =
  | { name: 'subscription-confirmation-mail'; data: { subscriberId: string } }
  | {
      name: 'account-mail';
      data: { accountId: string; kind: 'activation' | 'password_reset' | 'account_exists' };
    }
  | { name: 'rates-mail'; data: { mailingId: string } & RunRef }
  | { name: 'rates-csv'; data: { email: string } & RunRef }
  | { name: 'rates-tweet'; data: { tweetId: string } & RunRef }
  | { name: 'payment-reconcile'; data: { reference: string } }
  | { name: 'receipt-mail'; data: { reference: string } }
  | { name: 'subscription-lifecycle'; data: Record<string, never> }
  | { name: 'payment-sweep'; data: Record<string, never> }
  | { name: 'daily-rates-mail'; data: Record<string, never> }
  | { name: 'webhook-delivery'; data: { endpointId: string } }
  | { name: 'webhook-sweep'; data: Record<string, never> }
  | { name: 'request-log-retention'; data: Record<string, never> }
  | { name: 'official-imports'; data: Record<string, never> }
  | { name: 'official-import'; data: { source: OfficialSource } }
  | { name: 'publication-deadlines'; data: Record<string, never> }
  | { name: 'rate-alert-confirmation-mail'; data: { alertId: string } }
  | { name: 'rate-alerts'; data: { publishedAt: string; rates: PublishedRate[] } }
  | { name: 'rate-alerts-sweep'; data: Record<string, never> }
  | { name: 'rate-alert-mail'; data: { firingId: string } }
  | { name: 'telegram-message'; data: { chatId: number; text: string; firingId?: string } };

export type JobName = Job['name'];
export type JobData<N extends JobName> = Extract<Job, { name: N }>['data'];

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
  | { name: 'request-log-retention'; data: Record<string, never> };

export type JobName = Job['name'];
export type JobData<N extends JobName> = Extract<Job, { name: N }>['data'];

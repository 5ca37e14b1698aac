// Every job the queue carries, as one discriminated union (STYLE: queue payloads in one file).
export type Job =
  | { name: 'subscription-confirmation-mail'; data: { subscriberId: string } }
  | {
      name: 'account-mail';
      data: { accountId: string; kind: 'activation' | 'password_reset' | 'account_exists' };
    }
  | { name: 'rates-mail'; data: { mailingId: string } }
  | { name: 'rates-csv'; data: { email: string } }
  | { name: 'rates-tweet'; data: { tweetId: string } }
  | { name: 'payment-reconcile'; data: { reference: string } }
  | { name: 'subscription-lifecycle'; data: Record<string, never> };

export type JobName = Job['name'];
export type JobData<N extends JobName> = Extract<Job, { name: N }>['data'];

// The throttled calls' limits and the mail resend window (DESIGN §7): plain data that route files name on their calls
// and the limits plugin counts against. It sits below the modules and the plugins so both can import it.

export interface Limit {
  /** Names the counter, so two limits on one call count apart. */
  name: string;
  max: number;
  timeWindowMs: number;
  /**
   * 'client-and-address' counts attempts on one mailbox from one client; 'client' counts every address together;
   * 'mailbox' counts one mailbox from every client; 'everyone' counts all calls together; 'endpoint' counts calls on
   * one webhook endpoint of one app (the route's appId and endpointId), from any client; 'app' counts calls naming
   * one app (the route's appId), from any client.
   */
  per: 'client' | 'client-and-address' | 'mailbox' | 'everyone' | 'endpoint' | 'app';
  /** The plugin's setting that gives `max` instead (SIGNUPS_PER_MINUTE). */
  maxFrom?: 'signupsPerMinute';
}

const MINUTE = 60_000;

/** Attempts at one address from one client: a person mistyping gets ten tries a minute. */
const perAddress = (name: string): Limit => ({
  name,
  max: 10,
  timeWindowMs: MINUTE,
  per: 'client-and-address',
});

/**
 * The limits of each throttled call. Per client across addresses: sign-in 50 per 10 minutes
 * (credential stuffing from one address spends argon2 time of every user); sign-up, reset request and subscribe
 * 20 per hour (each sends a mail). Link calls (activation, reset with a code) carry no address: 10 a minute.
 */
export const LIMITS = {
  signin: [
    perAddress('signin'),
    { name: 'signin-client', max: 50, timeWindowMs: 10 * MINUTE, per: 'client' },
  ],
  adminSignin: [
    perAddress('admin-signin'),
    { name: 'admin-signin-client', max: 50, timeWindowMs: 10 * MINUTE, per: 'client' },
  ],
  /**
   * Sign-ups also have a budget for one mailbox from any client (plus-tagged spellings of one inbox count as one),
   * and one for everybody together: each sign-up hashes a password, and a flood of them must leave CPU for the API.
   */
  signup: [
    perAddress('signup'),
    { name: 'signup-client', max: 20, timeWindowMs: 60 * MINUTE, per: 'client' },
    { name: 'signup-mailbox', max: 3, timeWindowMs: 60 * MINUTE, per: 'mailbox' },
    { name: 'signup-everyone', max: 60, timeWindowMs: MINUTE, per: 'everyone', maxFrom: 'signupsPerMinute' },
  ],
  resetRequest: [
    perAddress('reset-request'),
    { name: 'reset-request-client', max: 20, timeWindowMs: 60 * MINUTE, per: 'client' },
  ],
  subscribe: [
    perAddress('subscribe'),
    { name: 'subscribe-client', max: 20, timeWindowMs: 60 * MINUTE, per: 'client' },
  ],
  link: [{ name: 'link', max: 10, timeWindowMs: MINUTE, per: 'client' }],
  /**
   * Test events per webhook endpoint. Each is a POST to the customer's receiver; unlimited, a console
   * script could aim the platform at any URL it registered (200 were accepted in 6 s).
   */
  webhookTest: [{ name: 'webhook-test', max: 50, timeWindowMs: 60 * MINUTE, per: 'endpoint' }],
  /**
   * Webhook management with an app's key, per app: a deployment script makes a handful of calls, and an unlimited
   * loop of them would hold a database connection per call.
   */
  webhookManagement: [{ name: 'webhooks', max: 60, timeWindowMs: MINUTE, per: 'app' }],
  /** The site's key-less history and candles: a chart reader clicks through periods, a scraper more. */
  rateCharts: [{ name: 'rate-charts', max: 60, timeWindowMs: MINUTE, per: 'client' }],
} satisfies Record<string, Limit[]>;

/** At most one mail of a kind to one address in this window; later requests get the same answer and no mail. */
export const MAIL_RESEND_WINDOW_MS = 5 * MINUTE;
/** A resent activation link counts apart from the sign-up's, so that one resend goes out right after signing up. */
export const MAIL_KINDS = ['signup', 'activation-resend', 'password-reset', 'subscription'] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

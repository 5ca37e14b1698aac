// The settings' shapes that config.ts fills from the environment and the modules take as options. Types only: this
// file reads nothing, so a module can name the settings it needs without importing the configuration.
import type { WebhookSignatureCheck } from './providers/basqet-contract';

export interface TwitterCredentials {
  appKey: string;
  appSecret: string;
  accessToken: string;
  accessSecret: string;
}

/** Who takes payments: the sandbox this server serves itself (the demo), or Basqet. */
export type PaymentProviderName = 'sandbox' | 'basqet';

/** The payment provider's HTTP API and checkout script, and the keys this server uses with them. */
export interface PaymentSettings {
  apiUrl: string;
  scriptUrl: string;
  publicKey: string;
  secretKey: string;
  webhookSignature: WebhookSignatureCheck;
}

/** Where each central bank's reference rates are read from (tests point them at local fakes). */
export interface OfficialSourceSettings {
  cbnUrl: string;
  cbkUrl: string;
  /** SARB's time-series address; the series and the dates are appended as path segments. */
  sarbUrl: string;
  bogUrl: string;
  /** How long one request to a central bank may take before the source counts as down for that attempt. */
  timeoutMs: number;
  /** How many days back each daily import reads, so a day missed while a source was down is filled in later. */
  importDays: number;
}

export interface TelegramSettings {
  token: string;
  /** Telegram's Bot API, a self-hosted Bot API server, or a local fake in tests (TELEGRAM_API_ROOT). */
  apiRoot: string;
  /** webhook behind this server when PUBLIC_URL is https (Telegram calls only https); long polling otherwise. */
  mode: 'webhook' | 'polling';
  /** What Telegram sends in X-Telegram-Bot-Api-Secret-Token: derived from the JWT secret, never configured apart. */
  webhookSecret: string;
  /** The bot's t.me link the site shows (TELEGRAM_BOT_USERNAME). */
  link: string;
}

export interface WebhookSettings {
  /**
   * Lets webhook targets sit on private, loopback, link-local, unique-local, CGNAT and unspecified addresses. Off
   * unless WEBHOOK_ALLOW_PRIVATE_TARGETS says so, except in the embedded demo (`npm start`), where receivers run on
   * the same machine.
   */
  allowPrivateTargets: boolean;
  /** How long one delivery attempt may take, connection to last byte of the answer. */
  timeoutMs: number;
  /** Wait before the first retry; each further retry waits twice as long, within 24 hours of the event. */
  retryBaseMs: number;
  /** Failed attempts in a row (timeouts, errors, non-2xx) that park an endpoint. */
  parkAfterFailures: number;
  /** How long a parked endpoint waits before one trial attempt. */
  parkCooldownMs: number;
  /** Deliveries one app may have in flight at once, over all its endpoints. */
  appInFlight: number;
  /**
   * Deliveries one account may have in flight at once, over all its apps: an account with many apps whose receivers
   * hang holds only this share of the webhooks lane.
   */
  accountInFlight: number;
}

/** A time of day on a time zone's wall clock, e.g. 07:00 in Africa/Lagos. */
export interface DailyTime {
  hour: number;
  minute: number;
  timeZone: string;
}

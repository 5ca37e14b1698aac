// The only reader of process.env (STYLE rule 2): parsed and validated once, then handed out typed.
import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  BASQET_API_URL,
  BASQET_SCRIPT_URL,
  WEBHOOK_SIGNATURE_CHECKS,
  type WebhookSignatureCheck,
} from './modules/payments/basqet-contract';
import { packageRoot } from './paths';

/**
 * Passwords printed in the README and at `npm start`: anybody may try them, so production refuses them (the admin's
 * ADMIN_PASSWORD, and DEMO_DATA, which seeds the demo developer with the other).
 */
export const PUBLISHED_PASSWORDS = {
  admin: 'afrofx-admin',
  developer: 'afrofx-developer',
} as const;

/** Until an operator sets the registered address, receipts name the city AfroFX works from. */
const DEFAULT_COMPANY_ADDRESS = 'AfroFX, Lagos, Nigeria';

export interface TwitterCredentials {
  appKey: string;
  appSecret: string;
  accessToken: string;
  accessSecret: string;
}

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  logLevel: string;
  /** pretty: coloured, one readable line per entry (development); json: one JSON object per line, for collectors. */
  logFormat: 'pretty' | 'json';
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** The address visitors and developers write to for help (the legal pages, the portal's E-mail support). */
  supportEmail: string;
  /** AfroFX's postal address, printed on every receipt (issue 20). */
  companyAddress: string;
  publicUrl: string;
  jwtSecret: string;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  paymentProvider: 'sandbox' | 'basqet';
  basqet: { publicKey: string; secretKey: string } | undefined;
  /** The provider's HTTP API and checkout script: Basqet's, or the sandbox's own copy served by this product. */
  payment: {
    apiUrl: string;
    scriptUrl: string;
    publicKey: string;
    secretKey: string;
    webhookSignature: WebhookSignatureCheck;
  };
  twitter: TwitterCredentials | undefined;
  /** Where the rate tweet is posted: Twitter/X itself, or a local fake of its API in tests. */
  twitterApiUrl: string;
  /** When the daily rates e-mail goes out: a wall-clock time in a time zone (RATES_MAIL_AT, RATES_MAIL_TIME_ZONE). */
  ratesMail: DailyTime;
  demoData: boolean;
  webDist: string | undefined;
  /** Proxy hops in front of the server whose X-Forwarded-For is believed (0: none, the default). */
  trustProxy: number;
  /**
   * With REDIS_URL the API process only produces jobs and the worker process consumes them; true runs both in the
   * API process (small installs without a worker container). Without Redis the API always runs its jobs itself.
   */
  runWorkerInApi: boolean;
  /** Paid API: requests one key may make per second before 429 (a flood guard, apart from the monthly quota). */
  apiBurstPerSecond: number;
  /** Issue 20: how many apps of one account may run a free plan. */
  freePlanAppsPerAccount: number;
  /** Paid API: how often buffered request-log entries and quota counts are written to the database. */
  requestLogFlushMs: number;
  /** Paid API: how long request-log writes may keep failing before /v1/health answers 503. */
  requestLogUnhealthyAfterMs: number;
  /** Days of request log kept before today (UTC); older days are dropped whole, their daily roll-ups kept. */
  requestLogRetentionDays: number;
  /** A quote older than this is answered with stale: true (issue 10). */
  staleAfterHours: number;
  webhooks: WebhookSettings;
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
}

/** A time of day on a time zone's wall clock, e.g. 07:00 in Africa/Lagos. */
export interface DailyTime {
  hour: number;
  minute: number;
  timeZone: string;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function parsePort(raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`PORT must be a whole number from 0 to 65535, got "${raw}"`);
  }
  return port;
}

function parsePositiveInteger(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1)
    throw new ConfigError(`${name} must be a whole number above 0, got "${raw}"`);
  return value;
}

function parseCount(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0)
    throw new ConfigError(`${name} must be a whole number from 0 up, got "${raw}"`);
  return value;
}

function parseBoolean(name: string, raw: string | undefined, fallback: boolean): boolean {
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function parseLogFormat(raw: string | undefined, fallback: Config['logFormat']): Config['logFormat'] {
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'pretty' || raw === 'json') return raw;
  throw new ConfigError(`LOG_FORMAT must be pretty or json, got "${raw}"`);
}

function parseUrl(name: string, raw: string | undefined, protocols: string[]): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} is not a valid URL`);
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(`${name} must start with ${protocols.map((p) => `${p}//`).join(' or ')}`);
  }
  return raw;
}

function parseEmail(name: string, raw: string | undefined, fallback: string): string {
  const value = raw === undefined || raw === '' ? fallback : raw.trim();
  if (!/^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/.test(value)) {
    throw new ConfigError(`${name} must be an e-mail address such as support@example.com, got "${value}"`);
  }
  return value;
}

function parseTimeOfDay(
  name: string,
  raw: string | undefined,
  fallback: string,
): { hour: number; minute: number } {
  const value = raw === undefined || raw === '' ? fallback : raw;
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(value);
  if (!match) throw new ConfigError(`${name} must be a 24-hour time as HH:MM, e.g. 07:00, got "${value}"`);
  return { hour: Number(match[1]), minute: Number(match[2]) };
}

function parseTimeZone(name: string, raw: string | undefined, fallback: string): string {
  const value = raw === undefined || raw === '' ? fallback : raw;
  try {
    // Throws a RangeError for a name the IANA database does not know.
    new Intl.DateTimeFormat('en', { timeZone: value });
  } catch {
    throw new ConfigError(`${name} must be an IANA time zone such as Africa/Lagos, got "${value}"`);
  }
  return value;
}

/** Outside production a secret is generated once and kept in DATA_DIR, so sessions survive restarts. */
function persistedSecret(dataDir: string): string {
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

export function loadConfig(env: Env = process.env): Config {
  const nodeEnv =
    env.NODE_ENV === 'production' ? 'production' : env.NODE_ENV === 'test' ? 'test' : 'development';
  const production = nodeEnv === 'production';
  const port = parsePort(env.PORT, 3000);
  const dataDir = path.resolve(env.DATA_DIR || './data');
  mkdirSync(dataDir, { recursive: true });

  const databaseUrl = parseUrl('DATABASE_URL', env.DATABASE_URL, ['postgres:', 'postgresql:']);
  const redisUrl = parseUrl('REDIS_URL', env.REDIS_URL, ['redis:', 'rediss:']);
  const smtpUrl = parseUrl('SMTP_URL', env.SMTP_URL, ['smtp:', 'smtps:']);
  const publicUrl = (
    parseUrl('PUBLIC_URL', env.PUBLIC_URL, ['http:', 'https:']) ?? `http://localhost:${port}`
  ).replace(/\/+$/, '');

  let jwtSecret = env.JWT_SECRET;
  if (jwtSecret !== undefined && jwtSecret !== '' && jwtSecret.length < 32) {
    throw new ConfigError('JWT_SECRET must be at least 32 characters long');
  }
  if (!jwtSecret) {
    if (production) throw new ConfigError('JWT_SECRET is required when NODE_ENV=production');
    jwtSecret = persistedSecret(dataDir);
  }

  // DESIGN §6: no default password in production.
  const adminEmail = env.ADMIN_EMAIL || (production ? undefined : 'admin@example.com');
  const adminPassword = env.ADMIN_PASSWORD || (production ? undefined : PUBLISHED_PASSWORDS.admin);
  if (adminPassword !== undefined && adminPassword.length < 8) {
    throw new ConfigError('ADMIN_PASSWORD must be at least 8 characters long');
  }
  if (production && Object.values(PUBLISHED_PASSWORDS).some((published) => published === adminPassword)) {
    throw new ConfigError(
      'ADMIN_PASSWORD is the published demo password: production needs a password of your own',
    );
  }
  const demoData = parseBoolean('DEMO_DATA', env.DEMO_DATA, !production && !databaseUrl);
  if (production && demoData) {
    throw new ConfigError(
      `DEMO_DATA seeds a developer whose password (${PUBLISHED_PASSWORDS.developer}) is published: production runs without it`,
    );
  }

  const paymentProvider = (env.PAYMENT_PROVIDER || 'sandbox') as Config['paymentProvider'];
  if (!['sandbox', 'basqet'].includes(paymentProvider)) {
    throw new ConfigError(`PAYMENT_PROVIDER must be sandbox or basqet, got "${paymentProvider}"`);
  }
  let basqet: Config['basqet'];
  if (paymentProvider === 'basqet') {
    if (!env.BASQET_PUBLIC_KEY || !env.BASQET_SECRET_KEY) {
      throw new ConfigError('PAYMENT_PROVIDER=basqet needs BASQET_PUBLIC_KEY and BASQET_SECRET_KEY');
    }
    basqet = { publicKey: env.BASQET_PUBLIC_KEY, secretKey: env.BASQET_SECRET_KEY };
  }
  // The sandbox takes no money, so it must never stand in for the real provider.
  if (production && paymentProvider === 'sandbox') {
    throw new ConfigError(
      'PAYMENT_PROVIDER=sandbox takes no real payments: production needs PAYMENT_PROVIDER=basqet with its keys',
    );
  }
  const sandboxSecret = createHmac('sha256', jwtSecret).update('sandbox payments').digest('base64url');
  const payment: Config['payment'] = {
    apiUrl: (
      parseUrl('BASQET_API_URL', env.BASQET_API_URL, ['http:', 'https:']) ??
      (basqet
        ? BASQET_API_URL
        : `${parseUrl('SANDBOX_PAY_URL', env.SANDBOX_PAY_URL, ['http:', 'https:']) ?? `${publicUrl}/sandbox-pay`}/v1`)
    ).replace(/\/+$/, ''),
    scriptUrl:
      parseUrl('BASQET_SCRIPT_URL', env.BASQET_SCRIPT_URL, ['http:', 'https:']) ??
      (basqet ? BASQET_SCRIPT_URL : '/sandbox-pay/basqet.js'),
    publicKey: basqet?.publicKey ?? 'pk_sandbox_afrofx',
    secretKey: basqet?.secretKey ?? `sk_sandbox_${sandboxSecret}`,
    webhookSignature: (env.BASQET_WEBHOOK_SIGNATURE || 'none') as WebhookSignatureCheck,
  };
  if (!WEBHOOK_SIGNATURE_CHECKS.includes(payment.webhookSignature)) {
    throw new ConfigError(
      `BASQET_WEBHOOK_SIGNATURE must be ${WEBHOOK_SIGNATURE_CHECKS.join(' or ')}, got "${payment.webhookSignature}"`,
    );
  }

  const twitterValues = [
    env.TWITTER_APP_KEY,
    env.TWITTER_APP_SECRET,
    env.TWITTER_ACCESS_TOKEN,
    env.TWITTER_ACCESS_SECRET,
  ];
  const twitterSet = twitterValues.filter(Boolean).length;
  if (twitterSet > 0 && twitterSet < 4) {
    throw new ConfigError(
      'TWITTER_APP_KEY, TWITTER_APP_SECRET, TWITTER_ACCESS_TOKEN and TWITTER_ACCESS_SECRET go together',
    );
  }
  const twitter =
    twitterSet === 4
      ? {
          appKey: env.TWITTER_APP_KEY!,
          appSecret: env.TWITTER_APP_SECRET!,
          accessToken: env.TWITTER_ACCESS_TOKEN!,
          accessSecret: env.TWITTER_ACCESS_SECRET!,
        }
      : undefined;

  const webDist =
    env.WEB_DIST === ''
      ? undefined
      : path.resolve(env.WEB_DIST || path.join(packageRoot, '..', 'web', 'dist'));

  return {
    env: nodeEnv,
    port,
    // The demo serves an admin console with a published password: only this machine reaches it unless HOST says so.
    host: env.HOST || '127.0.0.1',
    logLevel: env.LOG_LEVEL || (nodeEnv === 'test' ? 'silent' : 'info'),
    logFormat: parseLogFormat(env.LOG_FORMAT, nodeEnv === 'development' ? 'pretty' : 'json'),
    dataDir,
    databaseUrl,
    redisUrl,
    smtpUrl,
    mailFrom: env.MAIL_FROM || 'AfroFX <rates@afrofx.local>',
    supportEmail: parseEmail('SUPPORT_EMAIL', env.SUPPORT_EMAIL, 'support@afrofx.local'),
    companyAddress: env.COMPANY_ADDRESS?.trim() || DEFAULT_COMPANY_ADDRESS,
    publicUrl,
    jwtSecret,
    adminEmail,
    adminPassword,
    paymentProvider,
    basqet,
    payment,
    twitter,
    twitterApiUrl: (
      parseUrl('TWITTER_API_URL', env.TWITTER_API_URL, ['http:', 'https:']) ?? 'https://api.x.com'
    ).replace(/\/+$/, ''),
    ratesMail: {
      ...parseTimeOfDay('RATES_MAIL_AT', env.RATES_MAIL_AT, '07:00'),
      timeZone: parseTimeZone('RATES_MAIL_TIME_ZONE', env.RATES_MAIL_TIME_ZONE, 'Africa/Lagos'),
    },
    demoData,
    webDist,
    trustProxy: parseCount('TRUST_PROXY', env.TRUST_PROXY, 0),
    runWorkerInApi: parseBoolean('RUN_WORKER_IN_API', env.RUN_WORKER_IN_API, false),
    apiBurstPerSecond: parsePositiveInteger('API_BURST_PER_SECOND', env.API_BURST_PER_SECOND, 50),
    freePlanAppsPerAccount: parseCount('FREE_PLAN_APPS_PER_ACCOUNT', env.FREE_PLAN_APPS_PER_ACCOUNT, 1),
    requestLogFlushMs: parsePositiveInteger('REQUEST_LOG_FLUSH_MS', env.REQUEST_LOG_FLUSH_MS, 1000),
    requestLogUnhealthyAfterMs: parsePositiveInteger(
      'REQUEST_LOG_UNHEALTHY_AFTER_MS',
      env.REQUEST_LOG_UNHEALTHY_AFTER_MS,
      30_000,
    ),
    requestLogRetentionDays: parsePositiveInteger(
      'REQUEST_LOG_RETENTION_DAYS',
      env.REQUEST_LOG_RETENTION_DAYS,
      90,
    ),
    staleAfterHours: parsePositiveInteger('STALE_AFTER_HOURS', env.STALE_AFTER_HOURS, 24),
    webhooks: {
      allowPrivateTargets: parseBoolean(
        'WEBHOOK_ALLOW_PRIVATE_TARGETS',
        env.WEBHOOK_ALLOW_PRIVATE_TARGETS,
        !production && !databaseUrl,
      ),
      timeoutMs: parsePositiveInteger('WEBHOOK_TIMEOUT_MS', env.WEBHOOK_TIMEOUT_MS, 10_000),
      retryBaseMs: parsePositiveInteger('WEBHOOK_RETRY_BASE_MS', env.WEBHOOK_RETRY_BASE_MS, 30_000),
      parkAfterFailures: parsePositiveInteger(
        'WEBHOOK_PARK_AFTER_FAILURES',
        env.WEBHOOK_PARK_AFTER_FAILURES,
        5,
      ),
      parkCooldownMs: parsePositiveInteger('WEBHOOK_PARK_COOLDOWN_MS', env.WEBHOOK_PARK_COOLDOWN_MS, 600_000),
      appInFlight: parsePositiveInteger('WEBHOOK_APP_IN_FLIGHT', env.WEBHOOK_APP_IN_FLIGHT, 2),
    },
  };
}

/** For the entry points: one clear line and exit 1 on a bad configuration, instead of a stack trace. */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`Configuration error: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
}

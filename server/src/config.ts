// The only reader of process.env (STYLE rule 2): parsed and validated once, then handed out typed.
import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import {
  ConfigError,
  parseBoolean,
  parseCount,
  parseEmail,
  parseLogFormat,
  parsePort,
  parsePositiveInteger,
  parseTimeOfDay,
  parseTimeZone,
  parseUrl,
  type Env,
  type LogFormat,
} from './config-parse';
import { parsePayment, type PaymentConfig } from './config-payment';
import { packageRoot } from './paths';
import type {
  DailyTime,
  OfficialSourceSettings,
  TelegramSettings,
  TwitterCredentials,
  WebhookSettings,
} from './settings';

export { ConfigError } from './config-parse';
export type {
  DailyTime,
  OfficialSourceSettings,
  PaymentProviderName,
  PaymentSettings,
  TelegramSettings,
  TwitterCredentials,
  WebhookSettings,
} from './settings';

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

export interface Config extends PaymentConfig {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  logLevel: string;
  logFormat: LogFormat;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** The address visitors and developers write to for help (the legal pages, the portal's E-mail support). */
  supportEmail: string;
  /** AfroFX's postal address, printed on every receipt. */
  companyAddress: string;
  publicUrl: string;
  jwtSecret: string;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
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
  /** How many apps of one account may run a free plan. */
  freePlanAppsPerAccount: number;
  /** One process's password hashing: how many at once, and how long a sign-up or sign-in waits its turn (then 503). */
  passwordHashing: { concurrency: number; maxWaitMs: number };
  /** Sign-ups from all clients together in a minute, beside the per-client and per-mailbox limits. */
  signupsPerMinute: number;
  /** Paid API: how often buffered request-log entries and quota counts are written to the database. */
  requestLogFlushMs: number;
  /** Paid API: how long request-log writes may keep failing before /v1/health answers 503. */
  requestLogUnhealthyAfterMs: number;
  /** Days of request log kept before today (UTC); older days are dropped whole, their daily roll-ups kept. */
  requestLogRetentionDays: number;
  /** A quote older than this is answered with stale: true. */
  staleAfterHours: number;
  webhooks: WebhookSettings;
  officialSources: OfficialSourceSettings;
  /** The Telegram bot; absent without TELEGRAM_BOT_TOKEN (the site then shows no Telegram link). */
  telegram: TelegramSettings | undefined;
}

/** Outside production a secret is generated once and kept in DATA_DIR, so sessions survive restarts. */
function persistedSecret(dataDir: string): string {
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

function parseJwtSecret(env: Env, production: boolean, dataDir: string): string {
  const jwtSecret = env.JWT_SECRET;
  if (jwtSecret !== undefined && jwtSecret !== '' && jwtSecret.length < 32) {
    throw new ConfigError('JWT_SECRET must be at least 32 characters long');
  }
  if (jwtSecret) return jwtSecret;
  if (production) throw new ConfigError('JWT_SECRET is required when NODE_ENV=production');
  return persistedSecret(dataDir);
}

// DESIGN §6: no default password in production.
function parseAdmin(env: Env, production: boolean): Pick<Config, 'adminEmail' | 'adminPassword'> {
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
  return { adminEmail, adminPassword };
}

function parseDemoData(env: Env, production: boolean, databaseUrl: string | undefined): boolean {
  const demoData = parseBoolean('DEMO_DATA', env.DEMO_DATA, !production && !databaseUrl);
  if (production && demoData) {
    throw new ConfigError(
      `DEMO_DATA seeds a developer whose password (${PUBLISHED_PASSWORDS.developer}) is published: production runs without it`,
    );
  }
  return demoData;
}

function parseTwitter(env: Env): TwitterCredentials | undefined {
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
  return twitterSet === 4
    ? {
        appKey: env.TWITTER_APP_KEY!,
        appSecret: env.TWITTER_APP_SECRET!,
        accessToken: env.TWITTER_ACCESS_TOKEN!,
        accessSecret: env.TWITTER_ACCESS_SECRET!,
      }
    : undefined;
}

function parseTelegram(env: Env, publicUrl: string, jwtSecret: string): TelegramSettings | undefined {
  const telegramToken = env.TELEGRAM_BOT_TOKEN?.trim();
  if (!telegramToken) return undefined;
  return {
    token: telegramToken,
    apiRoot: (
      parseUrl('TELEGRAM_API_ROOT', env.TELEGRAM_API_ROOT, ['http:', 'https:']) ?? 'https://api.telegram.org'
    ).replace(/\/+$/, ''),
    mode: publicUrl.startsWith('https:') ? 'webhook' : 'polling',
    webhookSecret: createHmac('sha256', jwtSecret).update(`telegram webhook ${telegramToken}`).digest('hex'),
    link: `https://t.me/${(env.TELEGRAM_BOT_USERNAME || 'afrofx_bot').replace(/^@/, '')}`,
  };
}

function parsePasswordHashing(env: Env): Config['passwordHashing'] {
  return {
    // Half the cores hash at most, so the other half answer the API.
    concurrency: parsePositiveInteger(
      'PASSWORD_HASH_CONCURRENCY',
      env.PASSWORD_HASH_CONCURRENCY,
      Math.max(1, Math.floor(availableParallelism() / 2)),
    ),
    maxWaitMs: parsePositiveInteger('PASSWORD_HASH_MAX_WAIT_MS', env.PASSWORD_HASH_MAX_WAIT_MS, 5_000),
  };
}

function parseWebhooks(env: Env, production: boolean, databaseUrl: string | undefined): WebhookSettings {
  return {
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
    accountInFlight: parsePositiveInteger('WEBHOOK_ACCOUNT_IN_FLIGHT', env.WEBHOOK_ACCOUNT_IN_FLIGHT, 4),
  };
}

function parseOfficialSources(env: Env): OfficialSourceSettings {
  return {
    cbnUrl:
      parseUrl('OFFICIAL_CBN_URL', env.OFFICIAL_CBN_URL, ['http:', 'https:']) ??
      'https://www.cbn.gov.ng/api/GetAllExchangeRates',
    cbkUrl:
      parseUrl('OFFICIAL_CBK_URL', env.OFFICIAL_CBK_URL, ['http:', 'https:']) ??
      'https://www.centralbank.go.ke/wp-admin/admin-ajax.php?action=get_wdtable&table_id=193',
    sarbUrl: (
      parseUrl('OFFICIAL_SARB_URL', env.OFFICIAL_SARB_URL, ['http:', 'https:']) ??
      'https://custom.resbank.co.za/SarbWebApi/WebIndicators/Shared/GetTimeseriesObservations'
    ).replace(/\/+$/, ''),
    bogUrl:
      parseUrl('OFFICIAL_BOG_URL', env.OFFICIAL_BOG_URL, ['http:', 'https:']) ??
      'https://www.bog.gov.gh/treasury-and-the-markets/daily-interbank-fx-rates/',
    timeoutMs: parsePositiveInteger('OFFICIAL_SOURCE_TIMEOUT_MS', env.OFFICIAL_SOURCE_TIMEOUT_MS, 10_000),
    importDays: parsePositiveInteger('OFFICIAL_IMPORT_DAYS', env.OFFICIAL_IMPORT_DAYS, 7),
  };
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
  const jwtSecret = parseJwtSecret(env, production, dataDir);
  const admin = parseAdmin(env, production);
  const demoData = parseDemoData(env, production, databaseUrl);
  const payment = parsePayment(env, { production, jwtSecret, publicUrl });
  const twitter = parseTwitter(env);
  const telegram = parseTelegram(env, publicUrl, jwtSecret);
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
    ...admin,
    ...payment,
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
    passwordHashing: parsePasswordHashing(env),
    signupsPerMinute: parsePositiveInteger('SIGNUPS_PER_MINUTE', env.SIGNUPS_PER_MINUTE, 60),
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
    webhooks: parseWebhooks(env, production, databaseUrl),
    officialSources: parseOfficialSources(env),
    telegram,
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

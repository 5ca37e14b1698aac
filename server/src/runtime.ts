// Everything the API and the worker share: database, mail, queue and services, opened once and closed in order.
import path from 'node:path';
import type { Logger } from 'pino';
import { createChangeFeed, type ChangeFeed } from './change-feed';
import type { Config } from './config';
import { openDatabase, type DatabaseHandle } from './db/client';
import { seedDemoData } from './demo/seed';
import { jobRunner } from './jobs/run-job';
import { createLogger } from './logger';
import { createInlineQueue } from './queue/inline-queue';
import { createBullQueue, startBullWorker, type JobQueue, type RedisWorker } from './queue/queue';
import { createMailer, type Mailer } from './mail/mailer';
import { createTelegramApi } from './modules/telegram/telegram-api';
import { createPaymentProvider } from './modules/payments/payment-provider';
import { createServices, type Services } from './services';

export interface Runtime {
  config: Config;
  log: Logger;
  database: DatabaseHandle;
  mailer: Mailer;
  queue: JobQueue;
  services: Services;
  changes: ChangeFeed;
  /** Prefix of every Redis key this runtime writes (queue, rate limits). */
  keyPrefix: string;
  /** Starts consuming the Redis queue in this process (the worker, or tests). */
  startWorker(): RedisWorker | undefined;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  /** Tests keep PGlite in memory; the product keeps it in DATA_DIR. */
  inMemoryDatabase?: boolean;
  /** Redis key prefix, so parallel test runs never see each other's jobs. */
  queuePrefix?: string;
  /** Inline job retry base delay. */
  jobBackoffMs?: number;
  /** Inline job lease: how soon another process may take over a job whose process died. */
  jobLeaseMs?: number;
  log?: Logger;
  /** The clock of the jobs that act on the time of day and of the inline queue's schedules (tests move it). */
  now?: () => number;
}

export async function createRuntime(config: Config, options: RuntimeOptions = {}): Promise<Runtime> {
  const log = options.log ?? createLogger(config);
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: options.inMemoryDatabase ? undefined : path.join(config.dataDir, 'pglite'),
    onError: (err) => log.error({ err }, 'database connection error'),
  });
  await database.migrate();

  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    outboxDir: path.join(config.dataDir, 'outbox'),
    logLinks: config.env !== 'production',
    log,
  });

  const queuePrefix = options.queuePrefix ?? 'afrofx';
  const changes = createChangeFeed({
    redisUrl: config.redisUrl,
    channel: `${queuePrefix}:changes`,
    onError: (err) => log.warn({ err }, 'change feed redis error'),
  });
  // Services enqueue jobs and jobs call services: the closure reads `queue` only once both exist.
  const services = createServices(
    database,
    (name, data, opts) => queue.enqueue(name, data, opts),
    changes,
    createPaymentProvider(config),
    config.webhooks,
    config.companyAddress,
    config.freePlanAppsPerAccount,
    config.officialSources,
  );
  const telegram = config.telegram && createTelegramApi(config.telegram);
  const run = jobRunner({ config, services, mailer, telegram, log, now: options.now });
  const queue: JobQueue = config.redisUrl
    ? createBullQueue({ redisUrl: config.redisUrl, prefix: queuePrefix })
    : createInlineQueue({
        db: database.db,
        run,
        log,
        backoffMs: options.jobBackoffMs,
        leaseMs: options.jobLeaseMs,
        exclusive: database.driver === 'pglite',
        now: options.now,
      });

  if (config.adminEmail && config.adminPassword) {
    if (await services.adminUsers.ensureAdmin(config.adminEmail, config.adminPassword)) {
      log.info({ email: config.adminEmail }, 'created the first admin');
    }
  }
  if (config.demoData) await seedDemoData(database.db, log);

  return {
    config,
    log,
    database,
    mailer,
    queue,
    services,
    changes,
    keyPrefix: queuePrefix,
    startWorker: () =>
      config.redisUrl
        ? startBullWorker({ redisUrl: config.redisUrl, prefix: queuePrefix, run, log })
        : undefined,
    async close() {
      await queue.close();
      await changes.close();
      mailer.close();
      await database.close();
    },
  };
}

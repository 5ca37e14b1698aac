// One queue API for both drivers (DESIGN §1): BullMQ on Redis when REDIS_URL is set, the database's `jobs` table
// otherwise (inline-queue.ts). Either way a failed job is retried with exponential backoff; handlers are idempotent
// (at-least-once delivery).
import { Queue, Worker, type ConnectionOptions } from 'bullmq';
import IORedis from 'ioredis';
import type { DailyTime } from '../config';
import { DomainError } from '../errors';
import { dailyPattern } from './daily-time';
import type { Job, JobData, JobName } from './job-types';
import { laneOf, LANES, type Lane } from './lanes';

export const QUEUE_NAME = LANES.platform.queue;
// Exponential from 2 s over 7 attempts waits 2 + 4 + … + 64 = 126 s in all: a mailing rides out an SMTP server
// that is away for a minute or two, and a job that still fails is kept with its error.
export const JOB_ATTEMPTS = 7;
export const JOB_BACKOFF_MS = 2000;
// DESIGN §7: no request waits on a dead Redis for more than a second.
const ENQUEUE_TIMEOUT_MS = 1000;

export type JobRunner = (job: Job) => Promise<void>;

export interface Log {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface EnqueueOptions {
  /** A stable id makes a repeated enqueue of the same work a no-op. */
  jobId?: string;
  /** Runs the job no sooner than this many milliseconds from now. */
  delayMs?: number;
}

/**
 * A job that runs by the clock: once in every interval of `everyMs`, counted from the Unix epoch (so hours start at
 * :00 UTC), or once a day at a wall-clock time in a time zone.
 */
export type Schedule<N extends JobName = JobName> = { name: N; data: JobData<N> } & (
  { everyMs: number } | { daily: DailyTime }
);

export interface JobQueue {
  readonly driver: 'bullmq' | 'inline';
  enqueue<N extends JobName>(name: N, data: JobData<N>, options?: EnqueueOptions): Promise<void>;
  /**
   * Keeps a schedule running until close(), once however many processes start it: BullMQ keeps one job scheduler
   * per name in Redis; the database queue enqueues each interval's run under one jobId from a timer.
   */
  schedule(schedule: Schedule): Promise<void>;
  ping(): Promise<void>;
  /** Waits for the jobs this process runs itself (inline driver); used by tests and graceful shutdown. */
  drain(): Promise<void>;
  close(): Promise<void>;
}

/** The answer to an action whose job could not be queued: nothing was accepted, so the client should retry. */
export const queueUnavailable = () =>
  new DomainError(503, 'This could not be queued right now. Nothing was done; please try again in a minute.');

export interface RedisQueueOptions {
  redisUrl: string;
  prefix: string;
}

export function createBullQueue({ redisUrl, prefix }: RedisQueueOptions): JobQueue {
  // DESIGN §7: producers on the request path fail fast instead of hanging while Redis is away.
  const connection = new IORedis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  connection.on('error', () => {
    // Reported through ping() and enqueue() failures; ioredis reconnects by itself.
  });
  const queueOf = (lane: Lane) => {
    const queue = new Queue(LANES[lane].queue, {
      connection: connection as unknown as ConnectionOptions,
      prefix,
      defaultJobOptions: {
        attempts: JOB_ATTEMPTS,
        backoff: { type: 'exponential', delay: JOB_BACKOFF_MS },
        removeOnComplete: { count: 1000 },
        removeOnFail: { count: 5000 },
      },
    });
    queue.on('error', () => {});
    return queue;
  };
  const queues = Object.fromEntries(
    (Object.keys(LANES) as Lane[]).map((lane) => [lane, queueOf(lane)]),
  ) as Record<Lane, Queue>;
  return {
    driver: 'bullmq',
    async enqueue(name, data, options) {
      let timer: NodeJS.Timeout | undefined;
      try {
        // BullMQ waits for a connection that is down or stalled instead of failing: bound the wait.
        await Promise.race([
          queues[laneOf(name)].add(name, data, {
            jobId: options?.jobId ? `${name}-${options.jobId}` : undefined,
            delay: options?.delayMs,
          }),
          new Promise((_resolve, reject) => {
            timer = setTimeout(() => reject(new Error('Redis did not answer in time')), ENQUEUE_TIMEOUT_MS);
          }),
        ]);
      } catch {
        throw queueUnavailable();
      } finally {
        clearTimeout(timer);
      }
    },
    async schedule(schedule) {
      const { name, data } = schedule;
      // Upserted by name: a second process, or a restart, replaces the scheduler instead of adding one.
      await queues[laneOf(name)].upsertJobScheduler(
        name,
        'everyMs' in schedule
          ? { every: schedule.everyMs }
          : { pattern: dailyPattern(schedule.daily), tz: schedule.daily.timeZone },
        { name, data },
      );
    },
    async ping() {
      await connection.ping();
    },
    async drain() {},
    async close() {
      await Promise.all(Object.values(queues).map((queue) => queue.close()));
      connection.disconnect();
    },
  };
}

export interface RedisWorker {
  close(): Promise<void>;
}

export function startBullWorker({
  redisUrl,
  prefix,
  run,
  log,
}: RedisQueueOptions & { run: JobRunner; log: Log }): RedisWorker {
  // DESIGN §7: BullMQ workers need maxRetriesPerRequest: null to block on Redis.
  const connection = new IORedis(redisUrl, { maxRetriesPerRequest: null });
  const workerOf = (lane: Lane) => {
    const worker = new Worker(
      LANES[lane].queue,
      async (job) => {
        await run({ name: job.name, data: job.data } as Job);
      },
      {
        connection: connection as unknown as ConnectionOptions,
        prefix,
        concurrency: LANES[lane].concurrency,
        // A worker killed with -9 holds its job's lock until it lapses: a restarted worker takes the job over within
        // lockDuration + stalledInterval (15 s). A job may stall a few times (repeated kills) before it counts as
        // failed.
        lockDuration: 10_000,
        stalledInterval: 5_000,
        maxStalledCount: 3,
      },
    );
    worker.on('failed', (job, err) =>
      log.error({ err, job: job?.name, attempts: job?.attemptsMade }, 'job failed'),
    );
    worker.on('error', (err) => log.error({ err }, 'worker error'));
    return worker;
  };
  const workers = (Object.keys(LANES) as Lane[]).map(workerOf);
  return {
    async close() {
      // DESIGN §7: worker.close() waits for running jobs without a limit; bound it.
      await Promise.race([
        Promise.all(workers.map((worker) => worker.close())),
        new Promise((resolve) => setTimeout(resolve, 10_000).unref()),
      ]);
      connection.disconnect();
    },
  };
}

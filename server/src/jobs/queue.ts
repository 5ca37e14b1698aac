// One queue API for both drivers (DESIGN §1): BullMQ on Redis when REDIS_URL is set, in-process otherwise.
// Either way a failed job is retried with exponential backoff; handlers are idempotent (at-least-once delivery).
import { Queue, Worker, type ConnectionOptions } from 'bullmq';
import IORedis from 'ioredis';
import type { Job, JobData, JobName } from './job-types';

export const QUEUE_NAME = 'afrofx-jobs';
export const JOB_ATTEMPTS = 5;

export type JobRunner = (job: Job) => Promise<void>;

interface Log {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface EnqueueOptions {
  /** A stable id makes a repeated enqueue of the same work a no-op. */
  jobId?: string;
}

export interface JobQueue {
  readonly driver: 'bullmq' | 'inline';
  enqueue<N extends JobName>(name: N, data: JobData<N>, options?: EnqueueOptions): Promise<void>;
  ping(): Promise<void>;
  /** Waits for the jobs this process runs itself (inline driver); used by tests and graceful shutdown. */
  drain(): Promise<void>;
  close(): Promise<void>;
}

export interface InlineQueueOptions {
  run: JobRunner;
  log: Log;
  backoffMs?: number;
}

export function createInlineQueue({ run, log, backoffMs = 1000 }: InlineQueueOptions): JobQueue {
  const running = new Set<Promise<void>>();
  const seen = new Set<string>();
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;

  const attempt = (job: Job, attemptNo: number): Promise<void> =>
    run(job).catch(async (err: unknown) => {
      if (attemptNo >= JOB_ATTEMPTS || closed) {
        log.error({ err, job: job.name, attempts: attemptNo }, 'job failed for good');
        return;
      }
      const delay = backoffMs * 2 ** (attemptNo - 1);
      log.error({ err, job: job.name, attempt: attemptNo, retryInMs: delay }, 'job failed, retrying');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          resolve();
        }, delay);
        timers.add(timer);
      });
      return attempt(job, attemptNo + 1);
    });

  return {
    driver: 'inline',
    async enqueue(name, data, options) {
      if (closed) throw new Error('queue is closed');
      if (options?.jobId) {
        const key = `${name}:${options.jobId}`;
        if (seen.has(key)) return;
        seen.add(key);
      }
      const job = { name, data } as Job;
      const task = new Promise<void>((resolve) => setImmediate(resolve)).then(() => attempt(job, 1));
      running.add(task);
      void task.finally(() => running.delete(task));
    },
    async ping() {},
    async drain() {
      while (running.size > 0) await Promise.all([...running]);
    },
    async close() {
      await this.drain();
      closed = true;
      for (const timer of timers) clearTimeout(timer);
    },
  };
}

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
  const queue = new Queue(QUEUE_NAME, {
    connection: connection as unknown as ConnectionOptions,
    prefix,
    defaultJobOptions: {
      attempts: JOB_ATTEMPTS,
      backoff: { type: 'exponential', delay: 2000 },
      removeOnComplete: { count: 1000 },
      removeOnFail: { count: 5000 },
    },
  });
  queue.on('error', () => {});
  return {
    driver: 'bullmq',
    async enqueue(name, data, options) {
      await queue.add(name, data, options?.jobId ? { jobId: `${name}-${options.jobId}` } : undefined);
    },
    async ping() {
      await connection.ping();
    },
    async drain() {},
    async close() {
      await queue.close();
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
  const worker = new Worker(
    QUEUE_NAME,
    async (job) => {
      await run({ name: job.name, data: job.data } as Job);
    },
    { connection: connection as unknown as ConnectionOptions, prefix, concurrency: 4 },
  );
  worker.on('failed', (job, err) =>
    log.error({ err, job: job?.name, attempts: job?.attemptsMade }, 'job failed'),
  );
  worker.on('error', (err) => log.error({ err }, 'worker error'));
  return {
    async close() {
      // DESIGN §7: worker.close() waits for running jobs without a limit; bound it.
      await Promise.race([worker.close(), new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
      connection.disconnect();
    },
  };
}

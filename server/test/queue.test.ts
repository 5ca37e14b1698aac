import { randomBytes } from 'node:crypto';
import { Queue, type ConnectionOptions } from 'bullmq';
import IORedis from 'ioredis';
import { sql } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '../src/db/client';
import { jobs } from '../src/db/schema';
import { createInlineQueue as createQueue } from '../src/queue/inline-queue';
import {
  JOB_ATTEMPTS,
  QUEUE_NAME,
  createBullQueue,
  startBullWorker,
  type JobQueue,
  type RedisWorker,
} from '../src/queue/queue';
import type { Job } from '../src/queue/job-types';
import { startFaultProxy, type FaultProxy } from './support/fault-proxy';
import { createScratchDatabase, type ScratchDatabase } from './support/scratch-database';
import { deleteRedisKeys, eventually, redisAvailable } from './support/test-app';

const silent = { info: () => {}, error: () => {} };

/** A job runner that fails the first `failures` attempts of each address, counting every attempt. */
function flakyRunner(failures: Record<string, number> = {}) {
  const attempts = new Map<string, number>();
  const completed: string[] = [];
  const run = async (job: Job) => {
    const email = (job.data as { email: string }).email;
    const attempt = (attempts.get(email) ?? 0) + 1;
    attempts.set(email, attempt);
    if (attempt <= (failures[email] ?? 0)) throw new Error(`attempt ${attempt} of ${email} failed`);
    completed.push(email);
  };
  return { run, attempts, completed };
}

describe('createInlineQueue', () => {
  let scratch: ScratchDatabase | undefined;
  let database: DatabaseHandle;
  let db: DatabaseHandle['db'];
  beforeAll(async () => {
    scratch = process.env.DATABASE_URL
      ? await createScratchDatabase(process.env.DATABASE_URL, 'afrofx_queue')
      : undefined;
    database = await openDatabase({ databaseUrl: scratch?.url });
    await database.migrate();
    db = database.db;
  });
  afterAll(async () => {
    await database.close();
    await scratch?.drop();
  });
  beforeEach(() => db.delete(jobs));
  const createInlineQueue = (options: Omit<Parameters<typeof createQueue>[0], 'db'>) =>
    createQueue({ db, ...options });

  it('retries a failing job until it succeeds', async () => {
    const runner = flakyRunner({ 'flaky@example.com': 2 });
    const queue = createInlineQueue({ run: runner.run, log: silent, backoffMs: 1 });
    await queue.enqueue('rates-csv', { email: 'flaky@example.com' });
    await queue.drain();
    expect(runner.attempts.get('flaky@example.com')).toBe(3);
    expect(runner.completed).toEqual(['flaky@example.com']);
    await queue.close();
  });

  it(`gives a job that always fails up after ${JOB_ATTEMPTS} attempts`, async () => {
    const runner = flakyRunner({ 'broken@example.com': Infinity });
    const queue = createInlineQueue({ run: runner.run, log: silent, backoffMs: 1 });
    await queue.enqueue('rates-csv', { email: 'broken@example.com' });
    await queue.drain();
    expect(runner.attempts.get('broken@example.com')).toBe(JOB_ATTEMPTS);
    expect(runner.completed).toEqual([]);
    await queue.close();
  });

  it('runs a job enqueued twice under the same jobId once', async () => {
    const runner = flakyRunner();
    const queue = createInlineQueue({ run: runner.run, log: silent, backoffMs: 1 });
    await queue.enqueue('rates-csv', { email: 'once@example.com' }, { jobId: 'export-1' });
    await queue.enqueue('rates-csv', { email: 'once@example.com' }, { jobId: 'export-1' });
    await queue.enqueue('rates-csv', { email: 'twice@example.com' });
    await queue.enqueue('rates-csv', { email: 'twice@example.com' });
    await queue.drain();
    expect(runner.attempts.get('once@example.com')).toBe(1);
    expect(runner.attempts.get('twice@example.com')).toBe(2);
    await queue.close();
  });

  it('drain waits for running jobs, their retries and the jobs they enqueue', async () => {
    const finished: string[] = [];
    let failedOnce = false;
    const queue: JobQueue = createInlineQueue({
      log: silent,
      backoffMs: 1,
      run: async (job) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        const email = (job.data as { email: string }).email;
        if (email === 'first@example.com') {
          if (!failedOnce) {
            failedOnce = true;
            throw new Error('first attempt fails');
          }
          await queue.enqueue('rates-csv', { email: 'follow-up@example.com' });
        }
        finished.push(email);
      },
    });
    await queue.enqueue('rates-csv', { email: 'first@example.com' });
    expect(finished).toEqual([]);
    await queue.drain();
    expect(finished).toEqual(['first@example.com', 'follow-up@example.com']);
    await queue.close();
  });

  it('keeps a job that fails for good in the table with its error', async () => {
    const runner = flakyRunner({ 'broken@example.com': Infinity });
    const queue = createInlineQueue({ run: runner.run, log: silent, backoffMs: 1 });
    await queue.enqueue('rates-csv', { email: 'broken@example.com' });
    await queue.drain();
    expect(await db.select().from(jobs)).toMatchObject([
      {
        name: 'rates-csv',
        data: { email: 'broken@example.com' },
        state: 'failed',
        attempts: JOB_ATTEMPTS,
        lastError: `attempt ${JOB_ATTEMPTS} of broken@example.com failed`,
      },
    ]);
    await queue.close();
  });

  it('does not take again a job it is still running when a busy machine let its lease lapse', async () => {
    const started: string[] = [];
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const queue = createInlineQueue({
      log: silent,
      run: async (job) => {
        const email = (job.data as { email: string }).email;
        started.push(email);
        if (email === 'slow@example.com') await released;
      },
    });
    await queue.enqueue('rates-csv', { email: 'slow@example.com' });
    await eventually(async () => expect(started).toEqual(['slow@example.com']));
    // The renewal came too late: the row says the lease has passed while the job is still running here.
    await db.update(jobs).set({ lockedUntil: sql`now() - interval '1 minute'` });
    await queue.enqueue('rates-csv', { email: 'next@example.com' });
    await eventually(async () => expect(started).toEqual(['slow@example.com', 'next@example.com']));
    release();
    await queue.drain();
    expect(started).toEqual(['slow@example.com', 'next@example.com']);
    await queue.close();
  });

  it('refuses new jobs once closed', async () => {
    const queue = createInlineQueue({ run: flakyRunner().run, log: silent });
    await queue.close();
    await expect(queue.enqueue('rates-csv', { email: 'late@example.com' })).rejects.toThrow(
      'queue is closed',
    );
  });
});

// These run whenever REDIS_URL is set (the CI job with real servers); without it there is no Redis to talk to.
const describeWithRedis = redisAvailable ? describe : describe.skip;

describeWithRedis('createBullQueue with startBullWorker', () => {
  const redisUrl = process.env.REDIS_URL!;
  const prefix = `afrofx-test-queue-${randomBytes(6).toString('hex')}`;
  const runner = flakyRunner({ 'flaky@example.com': 1 });
  let queue: JobQueue;
  let worker: RedisWorker;
  let inspector: Queue;
  let inspectorConnection: IORedis;

  beforeAll(() => {
    queue = createBullQueue({ redisUrl, prefix });
    worker = startBullWorker({ redisUrl, prefix, run: runner.run, log: silent });
    inspectorConnection = new IORedis(redisUrl, { maxRetriesPerRequest: null });
    inspector = new Queue(QUEUE_NAME, {
      connection: inspectorConnection as unknown as ConnectionOptions,
      prefix,
    });
  });
  afterAll(async () => {
    await worker.close();
    await queue.close();
    await inspector.close();
    inspectorConnection.disconnect();
    await deleteRedisKeys(redisUrl, prefix);
  });

  it('pings Redis once connected', async () => {
    expect(queue.driver).toBe('bullmq');
    // Producers fail fast while Redis is not connected yet (DESIGN §7), so the first ping may come too early.
    await eventually(() => queue.ping());
  });

  it('runs an enqueued job on the worker', async () => {
    await queue.enqueue('rates-csv', { email: 'report@example.com' });
    await eventually(async () => expect(runner.completed).toContain('report@example.com'));
    expect(runner.attempts.get('report@example.com')).toBe(1);
  });

  it('retries a failing job until it succeeds', async () => {
    await queue.enqueue('rates-csv', { email: 'flaky@example.com' });
    await eventually(async () => expect(runner.completed).toContain('flaky@example.com'));
    expect(runner.attempts.get('flaky@example.com')).toBe(2);
  });

  it('keeps one job for a jobId enqueued twice', async () => {
    await queue.enqueue('rates-csv', { email: 'dedup@example.com' }, { jobId: 'export-1' });
    await queue.enqueue('rates-csv', { email: 'dedup@example.com' }, { jobId: 'export-1' });
    await eventually(async () => expect(runner.completed).toContain('dedup@example.com'));
    const jobs = await inspector.getJobs(['waiting', 'active', 'delayed', 'completed', 'failed']);
    expect(jobs.filter((job) => job.data.email === 'dedup@example.com')).toHaveLength(1);
    expect(runner.attempts.get('dedup@example.com')).toBe(1);
  });
});

describeWithRedis('createBullQueue while Redis is away', () => {
  const redisUrl = process.env.REDIS_URL!;
  const prefix = `afrofx-test-queue-${randomBytes(6).toString('hex')}`;
  let proxy: FaultProxy;
  let queue: JobQueue;

  beforeAll(async () => {
    const { hostname, port } = new URL(redisUrl);
    proxy = await startFaultProxy(hostname, Number(port || 6379));
    queue = createBullQueue({ redisUrl: proxy.url(redisUrl), prefix });
    await eventually(() => queue.ping());
  });
  afterEach(() => proxy.restore());
  afterAll(async () => {
    await queue.close();
    await proxy.close();
    await deleteRedisKeys(redisUrl, prefix);
  });

  it('answers 503 "try again" instead of hanging while the connection is stalled', async () => {
    proxy.stall();
    await expect(queue.enqueue('rates-csv', { email: 'stalled@example.com' })).rejects.toMatchObject({
      statusCode: 503,
      message: 'This could not be queued right now. Nothing was done; please try again in a minute.',
    });
  });

  it('answers 503 while Redis refuses connections, and enqueues again once it is back', async () => {
    proxy.cut();
    await expect(queue.enqueue('rates-csv', { email: 'cut@example.com' })).rejects.toMatchObject({
      statusCode: 503,
    });
    proxy.restore();
    await eventually(() => queue.enqueue('rates-csv', { email: 'back@example.com' }));
  });
});

describeWithRedis('startBullWorker when a worker dies holding a job', () => {
  const redisUrl = process.env.REDIS_URL!;
  const prefix = `afrofx-test-queue-${randomBytes(6).toString('hex')}`;
  let proxy: FaultProxy;
  const closing: Array<{ close(): Promise<void> }> = [];
  beforeAll(async () => {
    const { hostname, port } = new URL(redisUrl);
    proxy = await startFaultProxy(hostname, Number(port || 6379));
  });
  afterAll(async () => {
    await Promise.all(closing.map((it) => it.close()));
    await proxy.close();
    await deleteRedisKeys(redisUrl, prefix);
  });

  it('lets another worker take the job over once the dead one lost its lock (docs/operations.md: within 15 s)', async () => {
    const started: string[] = [];
    // The first worker reaches Redis through the proxy; cutting it for good is a worker killed with -9.
    const dead = startBullWorker({
      redisUrl: proxy.url(redisUrl),
      prefix,
      log: silent,
      run: async (job) => {
        started.push((job.data as { email: string }).email);
        return new Promise<void>(() => {});
      },
    });
    const queue = createBullQueue({ redisUrl, prefix });
    closing.push(queue, dead);
    await eventually(() => queue.ping());
    await queue.enqueue('rates-csv', { email: 'orphan@example.com' });
    await eventually(async () => expect(started).toEqual(['orphan@example.com']));
    proxy.cut();

    const runner = flakyRunner();
    closing.push(startBullWorker({ redisUrl, prefix, run: runner.run, log: silent }));
    await eventually(async () => expect(runner.completed).toEqual(['orphan@example.com']), 20_000);
  }, 40_000);
});

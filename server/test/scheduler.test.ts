// DESIGN §4: the lifecycle job runs by itself, hourly, once however many processes start its schedule: a BullMQ job
// scheduler with Redis, an unref'd timer enqueueing one jobId per interval into the database queue without it.
import { Queue } from 'bullmq';
import IORedis from 'ioredis';
import { eq } from 'drizzle-orm';
import { jobs } from '../src/db/schema';
import { QUEUE_NAME } from '../src/jobs/queue';
import { SCHEDULES, startSchedules } from '../src/jobs/scheduler';
import { LIFECYCLE_EVERY_MS } from '../src/jobs/subscription-lifecycle.job';
import { siblingApp } from './support/paid-api';
import { createTestApp, eventually, redisAvailable, type TestApp } from './support/test-app';

const HOUR = 60 * 60 * 1000;

it('schedules the subscription lifecycle hourly and the webhook sweep every minute', () => {
  expect(SCHEDULES).toEqual([
    { name: 'subscription-lifecycle', data: {}, everyMs: HOUR },
    { name: 'webhook-sweep', data: {}, everyMs: 60 * 1000 },
  ]);
  expect(LIFECYCLE_EVERY_MS).toBe(HOUR);
});

describe('without Redis (the jobs table)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ REDIS_URL: '' });
  });
  afterAll(() => t.close());

  const lifecycleRows = () =>
    t.runtime.database.db
      .select({ dedupeKey: jobs.dedupeKey, state: jobs.state })
      .from(jobs)
      .where(eq(jobs.name, 'subscription-lifecycle'));

  it("enqueues this hour's lifecycle run at start, once however many timers start, and runs it", async () => {
    expect(t.runtime.queue.driver).toBe('inline');
    const before = Date.now();
    // Two processes sharing the database start their timers.
    await Promise.all([
      startSchedules(t.runtime.queue, t.runtime.log),
      startSchedules(t.runtime.queue, t.runtime.log),
    ]);
    const hours = [before, Date.now()].map(
      (ms) => `subscription-lifecycle:${new Date(Math.floor(ms / HOUR) * HOUR).toISOString()}`,
    );
    const rows = await eventually(async () => {
      const found = await lifecycleRows();
      expect(found.map((r) => r.state)).toEqual(['done']);
      return found;
    });
    expect(hours).toContain(rows[0]!.dedupeKey);
  });

  it('enqueues one run per interval from its timer, even with two timers', async () => {
    const everyMs = 40;
    const schedule = { name: 'subscription-lifecycle' as const, data: {}, everyMs };
    await startSchedules(t.runtime.queue, t.runtime.log, [schedule]);
    await startSchedules(t.runtime.queue, t.runtime.log, [schedule]);
    const onGrid = (key: string | null) => {
      const at = Date.parse(key?.replace('subscription-lifecycle:', '') ?? '');
      return at % everyMs === 0 && at % HOUR !== 0;
    };
    const rows = await eventually(async () => {
      const found = (await lifecycleRows()).filter((r) => onGrid(r.dedupeKey));
      // Three intervals past the first prove the timer goes on by itself.
      expect(found.filter((r) => r.state === 'done').length).toBeGreaterThanOrEqual(4);
      return found;
    });
    const keys = rows.map((r) => r.dedupeKey);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

(redisAvailable ? describe : describe.skip)('with Redis (BullMQ job scheduler; needs REDIS_URL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('exists once when two runtimes start it on the same Redis prefix, with one job per hour', async () => {
    expect(t.runtime.queue.driver).toBe('bullmq');
    const sibling = await siblingApp(t);
    try {
      await Promise.all([
        startSchedules(t.runtime.queue, t.runtime.log),
        startSchedules(sibling.runtime.queue, sibling.runtime.log),
      ]);
      await startSchedules(t.runtime.queue, t.runtime.log);
    } finally {
      await sibling.close();
    }
    const connection = new IORedis(process.env.REDIS_URL!, { maxRetriesPerRequest: null });
    const queue = new Queue(QUEUE_NAME, { connection, prefix: t.runtime.keyPrefix });
    try {
      const schedulers = await queue.getJobSchedulers();
      expect(schedulers).toEqual([
        expect.objectContaining({
          key: 'subscription-lifecycle',
          name: 'subscription-lifecycle',
          every: HOUR,
        }),
      ]);
      // The first run starts at once (and this process's worker runs it); the next waits an hour. Three starts
      // made no more of either.
      const lifecycleJobs = async (
        states: Array<'delayed' | 'waiting' | 'active' | 'completed' | 'failed'>,
      ) => (await queue.getJobs(states)).filter((job) => job.name === 'subscription-lifecycle');
      await eventually(async () => expect(await lifecycleJobs(['completed'])).toHaveLength(1));
      expect(await lifecycleJobs(['waiting', 'active', 'failed'])).toEqual([]);
      const [next, ...more] = await lifecycleJobs(['delayed']);
      expect(more).toEqual([]);
      expect(next!.opts.delay).toBeGreaterThan(HOUR - 60_000);
    } finally {
      await queue.close();
      connection.disconnect();
    }
  });
});

import type { JobRun } from '@afrofx/shared';
import { count } from 'drizzle-orm';
import { mailingListSubscribers, rateMailings, rates } from '../src/db/schema';
import type { Job } from '../src/queue/job-types';
import { jobRunner } from '../src/jobs/run-job';
import { enqueueWithRuns } from '../src/modules/job-runs/job-runs.service';
import { developerFactory } from './support/developers';
import { startFaultProxy } from './support/fault-proxy';
import { createTestApp, eventually, redisAvailable, type TestApp } from './support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.runtime.database.db.insert(mailingListSubscribers).values(
    ['ada', 'kofi', 'zola'].map((name) => ({
      email: `${name}@jobs.example.com`,
      mailType: 'mailing_list' as const,
      isActivated: true,
    })),
  );
});
afterAll(() => t.close());

const signUp = developerFactory(() => t, 'job-runs', 53);

async function jobRuns(query = '', app: TestApp = t): Promise<JobRun[]> {
  const res = await app.app.inject({
    method: 'GET',
    url: `/v1/admin/job_runs${query}`,
    headers: await app.adminHeaders(),
  });
  expect(res.statusCode).toBe(200);
  return res.json().data as JobRun[];
}

const runNamed = async (id: string) => (await jobRuns()).find((run) => run._id === id);

describe('GET admin/job_runs', () => {
  it('shows a rates mailing queued, then running with its progress, then done with the count sent', async () => {
    const jobs: Job[] = [];
    // The queue is held back here so the queued state can be seen; the real runner then runs the job.
    const enqueue = enqueueWithRuns(async (name, data) => {
      jobs.push({ name, data } as Job);
    }, t.runtime.services.jobRuns);
    const [mailing] = await t.runtime.database.db.insert(rateMailings).values({}).returning();
    await enqueue('rates-mail', { mailingId: mailing!.id });
    const [job] = jobs as Array<Extract<Job, { name: 'rates-mail' }>>;
    const runId = job!.data.runId!;
    expect(await runNamed(runId)).toMatchObject({
      name: 'rates-mail',
      state: 'queued',
      attempts: 0,
      startedAt: null,
    });

    const seenWhileSending: Array<Pick<JobRun, 'state' | 'progress' | 'total'>> = [];
    const run = jobRunner({
      config: t.config,
      services: t.runtime.services,
      log: t.runtime.log,
      mailer: {
        ...t.runtime.mailer,
        async send(message, record) {
          const { state, progress, total } = (await runNamed(runId))!;
          seenWhileSending.push({ state, progress, total });
          return t.runtime.mailer.send(message, record);
        },
      },
    });
    await run(job!);

    expect(seenWhileSending).toEqual(Array(3).fill({ state: 'running', progress: 0, total: 3 }));
    expect(await runNamed(runId)).toMatchObject({
      state: 'done',
      progress: 3,
      total: 3,
      counts: { sent: 3 },
      attempts: 1,
      error: null,
    });
  });

  it('lists the run Send Rates Mail started, newest first, and filters by job', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/send_rate_to_mail',
      headers: await t.adminHeaders(),
    });
    expect(res.statusCode).toBe(202);
    const [latest] = await jobRuns('?name=rates-mail');
    await eventually(async () => {
      expect(await runNamed(latest!._id)).toMatchObject({ state: 'done', counts: { sent: 3 } });
    });
    const all = await jobRuns();
    expect(all[0]!._id).toBe(latest!._id);
    expect(all.map((run) => run.createdAt)).toEqual([...all.map((run) => run.createdAt)].sort().reverse());
    expect(await jobRuns('?name=rates-csv')).toEqual([]);
  });

  it('reports what the export and the tweet did: rates exported, and the tweet a warning without credentials', async () => {
    const admin = await t.adminHeaders();
    for (const [market, buy] of [
      ['bank', 1500],
      ['black_market_cash', 1520],
    ] as const) {
      await t.createRate({ market, base: 'naira', asset: 'dollar', buy, sell: buy + 10 });
    }
    const [rateCount] = await t.runtime.database.db.select({ value: count() }).from(rates);
    expect(rateCount!.value).toBeGreaterThanOrEqual(2);
    const exported = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/export_rate_to_csv',
      headers: admin,
      payload: { email: 'ops@jobs.example.com' },
    });
    expect(exported.statusCode).toBe(202);
    const tweeted = await t.app.inject({ method: 'POST', url: '/v1/admin/send_tweet_rate', headers: admin });
    expect(tweeted.statusCode).toBe(202);
    await eventually(async () => {
      const [csv] = await jobRuns('?name=rates-csv');
      expect(csv).toMatchObject({ state: 'done', counts: { rates: rateCount!.value } });
      const [tweet] = await jobRuns('?name=rates-tweet');
      expect(tweet).toMatchObject({
        state: 'done',
        counts: { 'not posted': 1 },
        warning: 'Recorded, not posted: no Twitter credentials are configured.',
      });
    });
  });

  it('refuses a job name it does not know with a sentence', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/v1/admin/job_runs?name=payment-reconcile',
      headers: await t.adminHeaders(),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toEqual(expect.any(String));
  });

  it('is for admins only', async () => {
    const developer = await signUp();
    const asDeveloper = await t.app.inject({
      method: 'GET',
      url: '/v1/admin/job_runs',
      headers: { authorization: `Bearer ${developer.token}` },
    });
    expect(asDeveloper.statusCode).toBe(403);
    const anonymous = await t.app.inject({ method: 'GET', url: '/v1/admin/job_runs' });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('a failing admin job', () => {
  let down: TestApp;
  beforeAll(async () => {
    // Nothing listens on port 1: every mail the export sends is refused.
    down = await createTestApp({ SMTP_URL: 'smtp://127.0.0.1:1' });
  });
  afterAll(() => down.close());

  it('is kept failed with the reason, and is retried', async () => {
    const res = await down.app.inject({
      method: 'POST',
      url: '/v1/admin/export_rate_to_csv',
      headers: await down.adminHeaders(),
      payload: { email: 'ops@example.com' },
    });
    expect(res.statusCode).toBe(202);
    const [run] = await jobRuns('?name=rates-csv', down);
    await eventually(async () => {
      const [now] = await jobRuns('?name=rates-csv', down);
      expect(now).toMatchObject({ _id: run!._id, error: expect.stringMatching(/ECONNREFUSED/) });
      expect(now!.attempts).toBeGreaterThanOrEqual(2);
      expect(['failed', 'running']).toContain(now!.state);
    });
    await eventually(async () => {
      expect((await jobRuns('?name=rates-csv', down))[0]).toMatchObject({ state: 'failed' });
    });
  });
});

// Needs a Redis server (REDIS_URL): without Redis the job and its run are rows of one database, stored together.
const describeWithRedis = redisAvailable ? describe : describe.skip;

describeWithRedis('an admin job the queue cannot take', () => {
  it('answers 503 and leaves no run behind', async () => {
    const { hostname, port } = new URL(process.env.REDIS_URL!);
    const proxy = await startFaultProxy(hostname, Number(port || 6379));
    const cut = await createTestApp({ REDIS_URL: proxy.url(process.env.REDIS_URL!) });
    try {
      await eventually(() => cut.runtime.queue.ping());
      proxy.cut();
      const res = await cut.app.inject({
        method: 'POST',
        url: '/v1/admin/send_tweet_rate',
        headers: await cut.adminHeaders(),
      });
      expect(res.statusCode).toBe(503);
      expect(await jobRuns('', cut)).toEqual([]);
    } finally {
      proxy.restore();
      await cut.close();
      await proxy.close();
    }
  });
});

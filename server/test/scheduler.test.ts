// DESIGN §4 and SPEC §6: the jobs that run by the clock, once however many processes start their schedules. The
// lifecycle runs hourly; the rates e-mail daily at RATES_MAIL_AT in RATES_MAIL_TIME_ZONE. With Redis each is a BullMQ
// job scheduler; without it an unref'd timer stores each run under one jobId (its scheduled time) in the jobs table.
import { Queue } from 'bullmq';
import IORedis from 'ioredis';
import { eq } from 'drizzle-orm';
import { loadConfig } from '../src/config';
import { jobs, rateMailingRecipients, rateMailings, mailingListSubscribers } from '../src/db/schema';
import { dailyMailingId, dailyRatesMailJob } from '../src/jobs/daily-rates-mail.job';
import { latestDailyRun, localDate, nextDailyRun } from '../src/queue/daily-time';
import { createInlineQueue } from '../src/queue/inline-queue';
import type { JobContext } from '../src/jobs/job-context';
import { QUEUE_NAME, type JobQueue } from '../src/queue/queue';
import { jobRunner } from '../src/jobs/run-job';
import { schedules, startSchedules } from '../src/jobs/scheduler';
import { LIFECYCLE_EVERY_MS } from '../src/jobs/subscription-lifecycle.job';
import { siblingApp } from './support/paid-api';
import { startSmtpSink, type SmtpSink } from './support/smtp-sink';
import { createTestApp, eventually, redisAvailable, type TestApp } from './support/test-app';

const HOUR = 60 * 60 * 1000;
const LAGOS_7AM = { hour: 7, minute: 0, timeZone: 'Africa/Lagos' };
// A secret given, so that loading the configuration writes nothing to disk.
const env = (vars: Record<string, string> = {}) => ({
  NODE_ENV: 'test',
  JWT_SECRET: 'a'.repeat(32),
  ...vars,
});
const lifecycleOnly = (t: TestApp) => schedules(t.config).filter((s) => s.name === 'subscription-lifecycle');

describe('the clock', () => {
  it('runs the lifecycle hourly, the payment sweep every 10 minutes, the webhook sweep every minute, the rates mail daily at RATES_MAIL_AT, the request log retention and the official rates import hourly, and the publication deadlines and the alerts outbox every minute', () => {
    expect(LIFECYCLE_EVERY_MS).toBe(HOUR);
    expect(schedules(loadConfig(env()))).toEqual([
      { name: 'subscription-lifecycle', data: {}, everyMs: HOUR },
      { name: 'payment-sweep', data: {}, everyMs: 10 * 60 * 1000 },
      { name: 'webhook-sweep', data: {}, everyMs: 60 * 1000 },
      { name: 'daily-rates-mail', data: {}, daily: LAGOS_7AM },
      { name: 'request-log-retention', data: {}, everyMs: HOUR },
      { name: 'official-imports', data: {}, everyMs: HOUR },
      { name: 'publication-deadlines', data: {}, everyMs: 60 * 1000 },
      { name: 'rate-alerts-sweep', data: {}, everyMs: 60 * 1000 },
    ]);
    expect(
      schedules(loadConfig(env({ RATES_MAIL_AT: '18:30', RATES_MAIL_TIME_ZONE: 'Africa/Nairobi' })))[3],
    ).toEqual({
      name: 'daily-rates-mail',
      data: {},
      daily: { hour: 18, minute: 30, timeZone: 'Africa/Nairobi' },
    });
  });

  it.each([
    ['25:00', 'RATES_MAIL_AT must be a 24-hour time as HH:MM'],
    ['7:00', 'RATES_MAIL_AT must be a 24-hour time as HH:MM'],
    ['07:60', 'RATES_MAIL_AT must be a 24-hour time as HH:MM'],
  ])('refuses RATES_MAIL_AT=%s', (value, message) => {
    expect(() => loadConfig(env({ RATES_MAIL_AT: value }))).toThrow(message);
  });

  it('refuses a time zone the IANA database does not know', () => {
    expect(() => loadConfig(env({ RATES_MAIL_TIME_ZONE: 'Africa/Atlantis' }))).toThrow(
      'RATES_MAIL_TIME_ZONE must be an IANA time zone',
    );
  });

  it('reads 07:00 in Lagos (UTC+1, no summer time) as 06:00 UTC, next and latest', () => {
    const at = Date.parse;
    expect(nextDailyRun(LAGOS_7AM, at('2026-11-23T05:59:59.999Z'))).toBe(at('2026-11-23T06:00:00.000Z'));
    expect(nextDailyRun(LAGOS_7AM, at('2026-11-23T06:00:00.000Z'))).toBe(at('2026-11-24T06:00:00.000Z'));
    expect(latestDailyRun(LAGOS_7AM, at('2026-11-23T06:00:00.000Z'))).toBe(at('2026-11-23T06:00:00.000Z'));
    expect(latestDailyRun(LAGOS_7AM, at('2026-11-23T05:59:59.999Z'))).toBe(at('2026-11-22T06:00:00.000Z'));
    // Across the year's end, and in a zone with summer time: 07:00 in London is 06:00 UTC in July, 07:00 in January.
    expect(nextDailyRun(LAGOS_7AM, at('2026-12-31T12:00:00Z'))).toBe(at('2027-01-01T06:00:00.000Z'));
    const london = { hour: 7, minute: 0, timeZone: 'Europe/London' };
    expect(nextDailyRun(london, at('2026-07-01T00:00:00Z'))).toBe(at('2026-07-01T06:00:00.000Z'));
    expect(nextDailyRun(london, at('2027-01-05T00:00:00Z'))).toBe(at('2027-01-05T07:00:00.000Z'));
    // 23:30 UTC on the 23rd is already the 24th in Lagos.
    expect(localDate('Africa/Lagos', at('2026-11-23T23:30:00Z'))).toBe('2026-11-24');
  });

  it('gives each day its own mailing id, the same on every run of that day', () => {
    const id = dailyMailingId('2026-11-24');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(dailyMailingId('2026-11-24')).toBe(id);
    expect(dailyMailingId('2026-11-25')).not.toBe(id);
  });
});

describe('without Redis (the jobs table)', () => {
  let t: TestApp;
  let sink: SmtpSink;
  /** How far a test has moved the clock; the app's own queue reads the same clock as the test's processes. */
  let clockOffset = 0;
  const now = () => Date.now() + clockOffset;
  beforeAll(async () => {
    sink = await startSmtpSink();
    t = await createTestApp({ REDIS_URL: '', SMTP_URL: sink.url }, { now });
  });
  afterEach(() => {
    clockOffset = 0;
  });
  afterAll(async () => {
    await t.close();
    await sink.close();
  });

  const rowsOf = (name: string) =>
    t.runtime.database.db
      .select({ dedupeKey: jobs.dedupeKey, state: jobs.state })
      .from(jobs)
      .where(eq(jobs.name, name));

  it("enqueues this hour's lifecycle run at start, once however many timers start, and runs it", async () => {
    expect(t.runtime.queue.driver).toBe('inline');
    const before = Date.now();
    // Two processes sharing the database start their timers.
    await Promise.all([
      startSchedules(t.runtime.queue, t.runtime.log, lifecycleOnly(t)),
      startSchedules(t.runtime.queue, t.runtime.log, lifecycleOnly(t)),
    ]);
    const hours = [before, Date.now()].map(
      (ms) => `subscription-lifecycle:${new Date(Math.floor(ms / HOUR) * HOUR).toISOString()}`,
    );
    const rows = await eventually(async () => {
      const found = await rowsOf('subscription-lifecycle');
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
      const found = (await rowsOf('subscription-lifecycle')).filter((r) => onGrid(r.dedupeKey));
      // Three intervals past the first prove the timer goes on by itself.
      expect(found.filter((r) => r.state === 'done').length).toBeGreaterThanOrEqual(4);
      return found;
    });
    const keys = rows.map((r) => r.dedupeKey);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('skips the runs a clock set forward has passed instead of storing each of them', async () => {
    const everyMs = 40;
    const schedule = { name: 'webhook-sweep' as const, data: {}, everyMs };
    await startSchedules(t.runtime.queue, t.runtime.log, [schedule]);
    const scheduledTimes = async () =>
      (await rowsOf('webhook-sweep')).map((r) => Date.parse(r.dedupeKey!.replace('webhook-sweep:', '')));
    await eventually(async () => expect((await scheduledTimes()).length).toBeGreaterThan(0));
    const before = new Set(await scheduledTimes());
    // An hour on is 90,000 intervals of 40 ms later.
    clockOffset = HOUR;
    const jumpedTo = now();
    const after = await eventually(async () => {
      const stored = (await scheduledTimes()).filter((at) => !before.has(at));
      expect(stored.length).toBeGreaterThanOrEqual(3);
      return stored;
    });
    // The run that was due when the clock moved is stored; the hour's others are skipped.
    expect(after.filter((at) => at < jumpedTo - everyMs).length).toBeLessThanOrEqual(1);
  });

  it('mails the day’s rates at 07:00 Lagos on a clock we control, once with two processes, not before', async () => {
    const db = t.runtime.database.db;
    await db.insert(mailingListSubscribers).values([
      { email: 'ada@example.com', isActivated: true },
      { email: 'bola@example.com', isActivated: true },
      { email: 'chidi@example.com', isActivated: true },
      { email: 'unconfirmed@example.com', isActivated: false },
    ]);
    // The clock reads 2026-11-24 06:59:55 in Lagos: the scheduled run is 5 s of real time away, more than a busy
    // machine takes to start two timers and look.
    const sevenAm = Date.parse('2026-11-24T06:00:00.000Z');
    // Every process reads it, the app's own queue too: whichever of them runs the day's job mails that day.
    clockOffset = sevenAm - 5000 - Date.now();
    const { config, services, mailer, log } = t.runtime;
    const ctx: JobContext = { config, services, mailer, log, now };
    // Two processes sharing the database, each with its timer (and its consumer of the jobs table).
    const processes: JobQueue[] = [1, 2].map(() => createInlineQueue({ db, run: jobRunner(ctx), log, now }));
    try {
      // The official import would reach the central banks themselves: it has tests of its own against a fake.
      const clock = schedules(config).filter((s) => s.name !== 'official-imports');
      await Promise.all(processes.map((queue) => startSchedules(queue, log, clock)));
      expect(await rowsOf('daily-rates-mail')).toEqual([]);

      const mailingId = dailyMailingId('2026-11-24');
      await eventually(async () => {
        const [mailing] = await db.select().from(rateMailings).where(eq(rateMailings.id, mailingId));
        expect(mailing?.completedAt).toBeInstanceOf(Date);
      }, 30_000);
      expect(await rowsOf('daily-rates-mail')).toEqual([
        { dedupeKey: 'daily-rates-mail:2026-11-24T06:00:00.000Z', state: 'done' },
      ]);
      // Not before 07:00: the run was stored by the timer at its time, not at start.
      expect(now()).toBeGreaterThanOrEqual(sevenAm);

      // A retry of the day's run (or a late third process) starts nothing more.
      await expect(dailyRatesMailJob(ctx)).resolves.toEqual({ recipients: 3 });
      await Promise.all(processes.map((queue) => queue.drain()));
      await t.runtime.queue.drain();
      const recipients = await db
        .select({ id: rateMailingRecipients.subscriberId })
        .from(rateMailingRecipients)
        .where(eq(rateMailingRecipients.mailingId, mailingId));
      expect(recipients).toHaveLength(3);
      expect(await db.select().from(rateMailings)).toHaveLength(1);
      expect(
        sink.delivered
          .map((m) => m.to)
          .flat()
          .sort(),
      ).toEqual(['ada@example.com', 'bola@example.com', 'chidi@example.com']);
    } finally {
      await Promise.all(processes.map((queue) => queue.close()));
    }
  }, 90_000);
});

(redisAvailable ? describe : describe.skip)('with Redis (BullMQ job schedulers; needs REDIS_URL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('exist once when two runtimes start them on the same Redis prefix, each with its next run', async () => {
    expect(t.runtime.queue.driver).toBe('bullmq');
    const sibling = await siblingApp(t);
    const started = Date.now();
    try {
      await Promise.all([
        startSchedules(t.runtime.queue, t.runtime.log, schedules(t.config)),
        startSchedules(sibling.runtime.queue, sibling.runtime.log, schedules(sibling.runtime.config)),
      ]);
      await startSchedules(t.runtime.queue, t.runtime.log, schedules(t.config));
    } finally {
      await sibling.close();
    }
    const connection = new IORedis(process.env.REDIS_URL!, { maxRetriesPerRequest: null });
    const queue = new Queue(QUEUE_NAME, { connection, prefix: t.runtime.keyPrefix });
    try {
      const found = await queue.getJobSchedulers();
      expect(found.sort((a, b) => a.key.localeCompare(b.key))).toEqual([
        expect.objectContaining({
          key: 'daily-rates-mail',
          name: 'daily-rates-mail',
          pattern: '0 7 * * *',
          tz: 'Africa/Lagos',
        }),
        expect.objectContaining({ key: 'official-imports', name: 'official-imports', every: HOUR }),
        expect.objectContaining({ key: 'payment-sweep', name: 'payment-sweep', every: 10 * 60 * 1000 }),
        expect.objectContaining({
          key: 'publication-deadlines',
          name: 'publication-deadlines',
          every: 60 * 1000,
        }),
        expect.objectContaining({ key: 'rate-alerts-sweep', name: 'rate-alerts-sweep', every: 60 * 1000 }),
        expect.objectContaining({ key: 'request-log-retention', name: 'request-log-retention', every: HOUR }),
        expect.objectContaining({
          key: 'subscription-lifecycle',
          name: 'subscription-lifecycle',
          every: HOUR,
        }),
        expect.objectContaining({ key: 'webhook-sweep', name: 'webhook-sweep', every: 60 * 1000 }),
      ]);
      const jobsNamed = async (
        name: string,
        states: Array<'delayed' | 'waiting' | 'active' | 'completed' | 'failed'>,
      ) => (await queue.getJobs(states)).filter((job) => job.name === name);
      // The lifecycle's first run starts at once (and this process's worker runs it); the next waits an hour.
      // Three starts made no more of either.
      await eventually(async () =>
        expect(await jobsNamed('subscription-lifecycle', ['completed'])).toHaveLength(1),
      );
      expect(await jobsNamed('subscription-lifecycle', ['waiting', 'active', 'failed'])).toEqual([]);
      const [nextLifecycle, ...moreLifecycle] = await jobsNamed('subscription-lifecycle', ['delayed']);
      expect(moreLifecycle).toEqual([]);
      expect(nextLifecycle!.opts.delay).toBeGreaterThan(HOUR - 60_000);
      // The rates mail waits for the next 07:00 in Lagos, as the embedded timer reads it.
      const dailyJobs = await jobsNamed('daily-rates-mail', ['delayed', 'waiting', 'active', 'completed']);
      expect(dailyJobs).toHaveLength(1);
      const runsAt = dailyJobs[0]!.timestamp + (dailyJobs[0]!.opts.delay ?? 0);
      expect([nextDailyRun(LAGOS_7AM, started), nextDailyRun(LAGOS_7AM, Date.now())]).toContain(runsAt);
    } finally {
      await queue.close();
      connection.disconnect();
    }
  });
});

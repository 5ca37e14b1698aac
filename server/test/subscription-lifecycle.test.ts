// DESIGN §4 lifecycle, run with a clock the test sets: expiry, promotion, monthly reset, exhausted/active, and the
// 80 % / 100 % warnings once each; a second run changes nothing more.
import { subscriptionLifecycleJob } from '../src/jobs/subscription-lifecycle.job';
import { eq } from 'drizzle-orm';
import { accounts, subscriptions } from '../src/db/schema';
import { paidClient, subscriptionRow, type PaidClient } from './support/paid-api';
import { createTestApp, eventually, type TestApp } from './support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const DAY = 86_400_000;

async function usageMails(client: PaidClient) {
  const [account] = await t.runtime.database.db
    .select({ email: accounts.email })
    .from(accounts)
    .where(eq(accounts.id, client.accountId));
  return t.mailsTo(account!.email, /API requests/);
}

const paidGet = (client: PaidClient) =>
  t.app.inject({ method: 'GET', url: '/v1/rates', headers: client.headers });

/** Moves a subscription's dates back, which is what the clock moving forward looks like to it. */
async function age(subscriptionId: string, ms: number) {
  const row = await subscriptionRow(t, subscriptionId);
  const back = (date: Date | null) => date && new Date(date.getTime() - ms);
  await t.runtime.database.db
    .update(subscriptions)
    .set({
      startsAt: back(row.startsAt)!,
      expireAt: back(row.expireAt)!,
      lastIncrement: back(row.lastIncrement),
    })
    .where(eq(subscriptions.id, subscriptionId));
}
const run = (now: Date) =>
  subscriptionLifecycleJob(
    { config: t.config, services: t.runtime.services, mailer: t.runtime.mailer, log: t.runtime.log },
    now,
  );

it('expires an ended plan and promotes the upcoming one; a second run changes nothing', async () => {
  const now = new Date();
  const ending = await paidClient(t, {
    startsAt: new Date(now.getTime() - 360 * DAY),
    expireAt: new Date(now.getTime() + DAY),
  });
  const later = new Date(now.getTime() + 2 * DAY);
  const [next] = await t.runtime.database.db
    .insert(subscriptions)
    .values({
      appId: ending.appId,
      planName: 'Next',
      status: 'upcoming',
      requestLimit: 10,
      startsAt: new Date(now.getTime() + DAY),
      expireAt: new Date(now.getTime() + 365 * DAY),
    })
    .returning();
  await run(later);
  expect((await subscriptionRow(t, ending.subscriptionId!)).status).toBe('expired');
  expect((await subscriptionRow(t, next!.id)).status).toBe('active');
  const before = [await subscriptionRow(t, ending.subscriptionId!), await subscriptionRow(t, next!.id)];
  await run(later);
  expect([await subscriptionRow(t, ending.subscriptionId!), await subscriptionRow(t, next!.id)]).toEqual(
    before,
  );
});

it('marks a plan at its limit exhausted, mails 80 % and 100 % once, and resets it the next month', async () => {
  const now = new Date();
  const client = await paidClient(t, {
    limit: 10,
    processed: 10,
    lastIncrement: now,
    startsAt: new Date(now.getTime() - 3 * DAY),
    expireAt: new Date(now.getTime() + 360 * DAY),
  });
  await run(now);
  expect((await subscriptionRow(t, client.subscriptionId!)).status).toBe('exhausted');
  const mails = () => usageMails(client);
  expect((await mails()).length).toBe(2);
  await run(now);
  expect((await mails()).length).toBe(2);

  const nextMonth = new Date(now.getTime() + 31 * DAY);
  await run(nextMonth);
  const row = await subscriptionRow(t, client.subscriptionId!);
  expect(row).toMatchObject({ status: 'active', processedRequests: 0 });
});

it('promotes the upcoming plan once the current one ends, and the paid API serves it; a second run changes nothing', async () => {
  const now = Date.now();
  const ending = await paidClient(t, {
    limit: 5,
    startsAt: new Date(now - 300 * DAY),
    expireAt: new Date(now + 60 * DAY),
  });
  const first = await paidGet(ending);
  expect(first.statusCode).toBe(200);
  expect(first.headers['ratelimit-limit']).toBe('5');

  // The clock passes the end of the current plan, where the upcoming one starts.
  await age(ending.subscriptionId!, 60 * DAY + 1000);
  const { expireAt } = await subscriptionRow(t, ending.subscriptionId!);
  const [next] = await t.runtime.database.db
    .insert(subscriptions)
    .values({
      appId: ending.appId,
      planName: 'Bigger',
      status: 'upcoming',
      requestLimit: 50,
      startsAt: expireAt,
      expireAt: new Date(expireAt.getTime() + 365 * DAY),
    })
    .returning();
  // The paid API still holds what it knew about the app.
  expect((await paidGet(ending)).headers['ratelimit-limit']).toBe('5');

  await run(new Date());
  expect((await subscriptionRow(t, ending.subscriptionId!)).status).toBe('expired');
  expect((await subscriptionRow(t, next!.id)).status).toBe('active');
  // The job told the change feed, so the paid API dropped its copy and serves the new plan.
  await eventually(async () => {
    const res = await paidGet(ending);
    expect([res.statusCode, res.headers['ratelimit-limit']]).toEqual([200, '50']);
  });

  // What the job decides (status and term), not the quota counters: the paid call above reaches the row's count
  // when the quota store flushes, which may be at any moment.
  const lifecycleOf = async (id: string) => {
    const { status, startsAt, expireAt, planName, requestLimit } = await subscriptionRow(t, id);
    return { status, startsAt, expireAt, planName, requestLimit };
  };
  const before = [await lifecycleOf(ending.subscriptionId!), await lifecycleOf(next!.id)];
  await run(new Date());
  expect([await lifecycleOf(ending.subscriptionId!), await lifecycleOf(next!.id)]).toEqual(before);
  expect((await paidGet(ending)).headers['ratelimit-limit']).toBe('50');
});

it("answers 429 at the monthly limit with the plan 'exhausted', then 'active' and 200 after the monthly reset", async () => {
  const now = Date.now();
  const client = await paidClient(t, {
    limit: 3,
    processed: 3,
    lastIncrement: new Date(now),
    startsAt: new Date(now - 10 * DAY),
    expireAt: new Date(now + 300 * DAY),
  });
  expect((await paidGet(client)).statusCode).toBe(429);
  await run(new Date());
  expect((await subscriptionRow(t, client.subscriptionId!)).status).toBe('exhausted');
  expect(await t.runtime.services.subscriptions.current(client.appId)).toMatchObject({
    status: 'exhausted',
    processedRequest: 3,
    limit: 3,
  });
  expect((await paidGet(client)).statusCode).toBe(429);

  // A month later: a new month of the term.
  await age(client.subscriptionId!, 31 * DAY);
  await run(new Date());
  expect(await subscriptionRow(t, client.subscriptionId!)).toMatchObject({
    status: 'active',
    processedRequests: 0,
  });
  expect(await t.runtime.services.subscriptions.current(client.appId)).toMatchObject({
    status: 'active',
    processedRequest: 0,
  });
  await eventually(async () => expect((await paidGet(client)).statusCode).toBe(200));
});

it('mails the 80 % warning once when it is reached, then the 100 % warning once', async () => {
  const now = new Date();
  const client = await paidClient(t, {
    limit: 10,
    processed: 8,
    lastIncrement: now,
    startsAt: new Date(now.getTime() - 3 * DAY),
    expireAt: new Date(now.getTime() + 360 * DAY),
  });
  await run(now);
  await run(now);
  expect((await usageMails(client)).map((m) => m.subject)).toEqual([
    "Paid app has used 80% of this month's API requests",
  ]);
  expect((await subscriptionRow(t, client.subscriptionId!)).status).toBe('active');

  await t.runtime.database.db
    .update(subscriptions)
    .set({ processedRequests: 10 })
    .where(eq(subscriptions.id, client.subscriptionId!));
  await run(now);
  await run(now);
  expect((await usageMails(client)).map((m) => m.subject)).toEqual([
    "Paid app has used 80% of this month's API requests",
    "Paid app has used all of this month's API requests",
  ]);
});

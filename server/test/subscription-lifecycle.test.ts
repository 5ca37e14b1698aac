// DESIGN §4 lifecycle, run with a clock the test sets: expiry, promotion, monthly reset, exhausted/active, and the
// 80 % / 100 % warnings once each; a second run changes nothing more.
import { subscriptionLifecycleJob } from '../src/jobs/subscription-lifecycle.job';
import { subscriptions } from '../src/db/schema';
import { paidClient, subscriptionRow } from './support/paid-api';
import { createTestApp, type TestApp } from './support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const DAY = 86_400_000;
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
  const mails = async () => (await t.outbox()).filter((m) => /API requests/.test(m.subject));
  expect((await mails()).length).toBe(2);
  await run(now);
  expect((await mails()).length).toBe(2);

  const nextMonth = new Date(now.getTime() + 31 * DAY);
  await run(nextMonth);
  const row = await subscriptionRow(t, client.subscriptionId!);
  expect(row).toMatchObject({ status: 'active', processedRequests: 0 });
});

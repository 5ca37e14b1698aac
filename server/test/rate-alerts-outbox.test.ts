// A publication's alerts are never lost to a queue that was away: the publication writes its alerts outbox row in the
// same transaction as its rates, its answer queues the alerts job and clears the row, and the minute's sweep queues
// what an answer could not. The alerts job is queued under the publication's id, so a sweep that races the answer
// never evaluates a publication twice.
import { eq } from 'drizzle-orm';
import { accounts, publicationAlertsOutbox, rateAlertFirings } from '../src/db/schema';
import { createDeskService } from '../src/modules/rates/desk.service';
import { ALERTS_OUTBOX_GRACE_MS } from '../src/modules/rates/publications';
import { queueUnavailable } from '../src/queue/queue';
import { ADMIN, createTestApp, eventually, type TestApp } from './support/test-app';

let t: TestApp;
let adminId: string;
beforeAll(async () => {
  t = await createTestApp();
  const [admin] = await t.runtime.database.db
    .select({ id: accounts.id })
    .from(accounts)
    .where(eq(accounts.email, ADMIN.email));
  adminId = admin!.id;
});
afterAll(() => t.close());

const db = () => t.runtime.database.db;
const outbox = () => db().select().from(publicationAlertsOutbox);
const firingsOf = (alertId: string) =>
  db().select().from(rateAlertFirings).where(eq(rateAlertFirings.alertId, alertId));
const afterGrace = () => new Date(Date.now() + ALERTS_OUTBOX_GRACE_MS + 1_000);

/** The desk as the app wires it, but with a queue that refuses every job (Redis away, or stalled past its second). */
function deskWithQueueAway() {
  const { changes, services } = t.runtime;
  return createDeskService({
    db: db(),
    changes,
    webhooks: services.webhooks,
    settings: services.settings,
    enqueue: () => Promise.reject(queueUnavailable()),
  });
}

async function alertAbove(level: number, chatId: number) {
  return t.runtime.services.alerts.createForChat(chatId, {
    market: 'bank',
    base: 'rand',
    asset: 'british_pounds',
    side: 'sell',
    condition: 'above',
    level,
  });
}

// Confirmed: the figures move far from one test to the next, which the desk's move check would ask about.
const row = (sell: number) =>
  ({
    market: 'bank',
    base: 'rand',
    asset: 'british_pounds',
    buy: sell - 0.2,
    sell,
    confirmed: true,
  }) as const;

it('clears the outbox row once the publication has queued its own alerts', async () => {
  const alert = await alertAbove(20, 7001);
  await t.runtime.services.desk.publish({ rows: [row(19)] }, adminId);
  await t.runtime.services.desk.publish({ rows: [row(21)] }, adminId);
  await eventually(async () => expect(await firingsOf(alert._id)).toHaveLength(1));
  expect(await outbox()).toEqual([]);
  expect(await t.runtime.services.desk.sweepAlertsOutbox(afterGrace())).toBe(0);
});

it('keeps the alerts of a publication made while the queue was away, and the sweep queues them once', async () => {
  const alert = await alertAbove(30, 7002);
  await t.runtime.services.desk.publish({ rows: [row(29)] }, adminId);
  await eventually(async () => expect(await outbox()).toEqual([]));

  const published = await deskWithQueueAway().publish({ rows: [row(31)] }, adminId);
  expect(published.publication).not.toBeNull();
  expect((await outbox()).map((r) => r.publicationId)).toEqual([published.publication!._id]);

  // Within its grace the answer may still be queueing: the sweep leaves it.
  expect(await t.runtime.services.desk.sweepAlertsOutbox()).toBe(0);
  expect(await t.runtime.services.desk.sweepAlertsOutbox(afterGrace())).toBe(1);
  await eventually(async () => expect(await firingsOf(alert._id)).toHaveLength(1));
  expect(await outbox()).toEqual([]);

  // A second sweep of the same publication (its row written back, as by a sweep that stopped before clearing it)
  // queues the same job id: the alert does not fire twice.
  await db()
    .insert(publicationAlertsOutbox)
    .values({
      publicationId: published.publication!._id,
      createdAt: new Date(Date.now() - ALERTS_OUTBOX_GRACE_MS - 1_000),
    });
  expect(await t.runtime.services.desk.sweepAlertsOutbox()).toBe(1);
  await t.runtime.queue.drain();
  expect(await firingsOf(alert._id)).toHaveLength(1);
});

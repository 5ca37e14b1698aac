// A customer's receiver that never answers must not delay anyone else's work. Webhook deliveries
// run on a queue lane of their own (queue/lanes.ts), so the activation mail of a sign-up is not behind them; inside
// the lane an endpoint has one delivery in flight, an app a few, and an endpoint that keeps failing is parked.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { webhookDeliveries, webhookEndpoints } from '../src/db/schema';
import { createTestApp, eventually, type TestApp } from './support/test-app';
import { ownerOfAppOnPlan, startReceiver, whenGone, type Receiver } from './support/webhook-receivers';

let t: TestApp;
let hanging: Server;
const held: ServerResponse[] = [];
/** Requests the hanging receiver holds open now, and the most it held at once, per path. */
const open = new Map<string, number>();
const mostOpen = new Map<string, number>();
/** Requests to each path that ended (answered never; cut by a sender's timeout or at the end). */
const ended = new Map<string, number>();
/** The same over every path of the app whose receivers hang (paths starting /hung-). */
const hungApp = { open: 0, most: 0 };

beforeAll(async () => {
  // The sender's timeout out of reach: a delivery to the hanging receiver ends only when the file does, so "still
  // hanging when the mail arrived" is an order of events even on a machine slow enough to take 10 s over a sign-up.
  t = await createTestApp({ WEBHOOK_TIMEOUT_MS: '3600000' });
  hanging = createServer((req, res) => {
    const path = req.url ?? '';
    open.set(path, (open.get(path) ?? 0) + 1);
    mostOpen.set(path, Math.max(mostOpen.get(path) ?? 0, open.get(path)!));
    whenGone(req, res, () => {
      open.set(path, open.get(path)! - 1);
      ended.set(path, (ended.get(path) ?? 0) + 1);
    });
    if (path.startsWith('/hung-')) {
      hungApp.open += 1;
      hungApp.most = Math.max(hungApp.most, hungApp.open);
      whenGone(req, res, () => (hungApp.open -= 1));
    }
    held.push(res);
  });
  await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  held.forEach((res) => res.destroy());
  hanging.closeAllConnections();
  await new Promise((resolve) => hanging.close(resolve));
  await t.close();
});

const hangingUrl = (path: string) => `http://127.0.0.1:${(hanging.address() as AddressInfo).port}${path}`;

// Not a deadline on the clock (a busy machine moves that) but an order of events: the mail arrives while every
// delivery the receiver holds is still hanging, so it waited for none of them.
it('sends the activation mail of a sign-up while 50 test events hang on a receiver', async () => {
  const { call, appId } = await ownerOfAppOnPlan(t, 'isolation', 61);
  const url = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/hooks`;
  const endpoint = await call(`account/webhooks/${appId}`, { url, events: ['rate.updated'] });
  expect(endpoint.statusCode).toBe(201);
  const endpointId = endpoint.json().data._id as string;
  for (let i = 0; i < 50; i++)
    expect((await call(`account/webhooks/${appId}/${endpointId}/test`)).statusCode).toBe(202);
  // The receiver holds the first deliveries open: the lane is full before the sign-up.
  await eventually(async () => expect(held.length).toBeGreaterThan(0));

  const email = 'isolated-signup@example.com';
  const signup = await t.app.inject({
    method: 'POST',
    url: '/v1/account/signup',
    payload: { email, password: 'correct-horse-battery', first_name: 'Ife', last_name: 'Obi' },
    remoteAddress: '10.62.0.1',
  });
  expect(signup.statusCode).toBe(201);
  await eventually(async () => expect((await t.mailsTo(email)).length).toBeGreaterThan(0));
  expect(ended.get('/hooks') ?? 0).toBe(0);
  expect(open.get('/hooks')).toBeGreaterThan(0);
});

it('accepts 50 test events an hour per endpoint and refuses the next with 429', async () => {
  const { call, appId } = await ownerOfAppOnPlan(t, 'test-limit', 63);
  const url = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/limited`;
  const endpointId = (await call(`account/webhooks/${appId}`, { url, events: ['rate.updated'] })).json().data
    ._id as string;
  const statuses: number[] = [];
  for (let i = 0; i < 51; i++)
    statuses.push((await call(`account/webhooks/${appId}/${endpointId}/test`)).statusCode);
  expect(statuses.filter((status) => status === 202)).toHaveLength(50);
  expect(statuses.at(-1)).toBe(429);
  const [queued] = await t.runtime.database.db
    .select({ n: count() })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, endpointId));
  expect(queued!.n).toBe(50);
});

it("delays neither another app's deliveries nor account mail while one app's receivers hang, and caps that app", async () => {
  const hung = await ownerOfAppOnPlan(t, 'hung-app', 64);
  const other = await ownerOfAppOnPlan(t, 'other-app', 65);
  const receiver = await startReceiver();
  try {
    // Three endpoints of one app, every one hanging, with five deliveries each.
    const paths = ['/hung-1', '/hung-2', '/hung-3'];
    for (const path of paths) await hung.sendTests(await hung.register(hangingUrl(path)), 5);
    await eventually(async () => expect(hungApp.open).toBe(t.config.webhooks.appInFlight));

    const otherEndpoint = await other.register(receiver.url);
    await other.sendTests(otherEndpoint, 3);
    await eventually(async () => expect(receiver.delivered).toHaveLength(3));
    const email = 'isolated-from-hung-app@example.com';
    const signup = await t.app.inject({
      method: 'POST',
      url: '/v1/account/signup',
      payload: { email, password: 'correct-horse-battery', first_name: 'Ada', last_name: 'Eze' },
      remoteAddress: '10.66.0.1',
    });
    expect(signup.statusCode).toBe(201);
    await eventually(async () => expect((await t.mailsTo(email)).length).toBeGreaterThan(0));
    // The hanging app's deliveries were all still hanging when the other app's and the mail arrived.
    for (const path of paths) expect(ended.get(path) ?? 0).toBe(0);

    // All the while, the hanging app never had more than its cap in flight, and each endpoint one at most.
    expect(hungApp.most).toBe(t.config.webhooks.appInFlight);
    for (const path of paths) expect(mostOpen.get(path) ?? 0).toBeLessThanOrEqual(1);
  } finally {
    await receiver.close();
  }
});

it('sends one delivery at a time to an endpoint, oldest first, each once to a receiver that deduplicates by its id', async () => {
  const owner = await ownerOfAppOnPlan(t, 'one-at-a-time', 67);
  const receiver = await startReceiver();
  try {
    const endpointId = await owner.register(receiver.url);
    await owner.sendTests(endpointId, 20);
    await eventually(async () => expect(receiver.delivered).toHaveLength(20), 30_000);
    expect(receiver.mostAtOnce).toBe(1);
    // The receiver has the last body a moment before the sender records the answer.
    const rows = await eventually(async () => {
      const rows = await owner.deliveryRows(endpointId);
      expect(rows.filter((row) => row.state === 'succeeded')).toHaveLength(20);
      return rows;
    });
    const oldestFirst = [...rows].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || 0);
    // At least once: a repeat (an attempt that timed out on a loaded machine after the receiver had it) carries the
    // id it carried the first time, so the receiver that deduplicates processes each delivery once.
    expect(receiver.idMismatches).toBe(0);
    expect(new Set(receiver.received)).toEqual(new Set(rows.map((row) => row.id)));
    expect(rows.every((row) => row.state === 'succeeded')).toBe(true);
    // Test events made within one millisecond share a time, so the order is checked between distinct times.
    const position = new Map(receiver.delivered.map((id, i) => [id, i]));
    for (let i = 1; i < oldestFirst.length; i++)
      if (oldestFirst[i]!.createdAt > oldestFirst[i - 1]!.createdAt)
        expect(position.get(oldestFirst[i]!.id)!).toBeGreaterThan(position.get(oldestFirst[i - 1]!.id)!);
  } finally {
    await receiver.close();
  }
});

// On an app of their own, so that the sweep sees only these endpoints.
describe("an endpoint's sender and circuit", () => {
  let c: TestApp;
  let receiver: Receiver;
  beforeAll(async () => {
    // Attempts time out soon (yet not before a loaded machine's answer), and a parked endpoint waits an hour for its
    // trial: only a resume sends again.
    c = await createTestApp({ WEBHOOK_TIMEOUT_MS: '1500', WEBHOOK_PARK_COOLDOWN_MS: '3600000' });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await c.close();
  });

  it('takes up a delivery whose sender died once its lease has passed, and sends it once', async () => {
    const owner = await ownerOfAppOnPlan(c, 'dead-sender', 68);
    const endpointId = await owner.register(receiver.url);
    const db = c.runtime.database.db;
    // What a worker killed mid-attempt leaves: the delivery claimed, the endpoint marked busy, both leased.
    const deliveryId = randomUUID();
    const leased = new Date(Date.now() + 60_000);
    await db.insert(webhookDeliveries).values({
      id: deliveryId,
      endpointId,
      event: 'webhook.test',
      payload: { id: deliveryId, type: 'webhook.test', data: {} },
      state: 'sending',
      attempts: 1,
      lockedUntil: leased,
    });
    await db
      .update(webhookEndpoints)
      .set({ sendingDeliveryId: deliveryId, sendingUntil: leased })
      .where(eq(webhookEndpoints.id, endpointId));
    const webhooks = c.runtime.services.webhooks;
    // While the lease lasts the endpoint is busy: nothing else is sent to it, and the sweep leaves it.
    expect(await webhooks.deliverNext(endpointId)).toBe(false);
    expect(await webhooks.sweep()).toBe(0);

    const passed = new Date(Date.now() - 1000);
    await db
      .update(webhookDeliveries)
      .set({ lockedUntil: passed })
      .where(eq(webhookDeliveries.id, deliveryId));
    await db
      .update(webhookEndpoints)
      .set({ sendingUntil: passed })
      .where(eq(webhookEndpoints.id, endpointId));
    expect(await webhooks.sweep()).toBe(1);
    await eventually(async () => expect(receiver.delivered).toEqual([deliveryId]));
    const [row] = await eventually(async () => {
      const rows = await owner.deliveryRows(endpointId);
      expect(rows[0]!.state).toBe('succeeded');
      return rows;
    });
    expect(row!.attempts).toBeGreaterThanOrEqual(2);
    expect(await webhooks.sweep()).toBe(0);
    expect(new Set(receiver.received)).toEqual(new Set([deliveryId]));
  });

  it('parks the endpoint after 5 timeouts in a row, keeps its deliveries, and resume sends each once', async () => {
    const owner = await ownerOfAppOnPlan(c, 'circuit', 69);
    receiver.delivered.length = 0;
    receiver.received.length = 0;
    receiver.mostAtOnce = 0;
    receiver.hang = true;
    const endpointId = await owner.register(receiver.url);
    await owner.sendTests(endpointId, 8);
    const parked = await eventually(async () => {
      const endpoint = await owner.endpoint(endpointId);
      expect(endpoint.state).toBe('parked');
      return endpoint;
    }, 30_000);
    expect(parked.parkedReason).toBe('5 attempts in a row failed; the last: No answer within 1500 ms');
    expect(new Date(parked.retryAt!).getTime() - new Date(parked.parkedAt!).getTime()).toBe(3_600_000);
    // The page's delivery log: five attempts made, every delivery kept, none given up.
    let rows = await owner.deliveryRows(endpointId);
    expect(rows).toHaveLength(8);
    expect(rows.reduce((n, row) => n + row.attempts, 0)).toBe(5);
    expect(rows.every((row) => row.state === 'pending')).toBe(true);
    expect(receiver.mostAtOnce).toBe(1);
    // A parked endpoint is not swept, and a new delivery waits too.
    expect(await c.runtime.services.webhooks.sweep()).toBe(0);
    await owner.sendTests(endpointId, 1);
    expect(await c.runtime.services.webhooks.deliverNext(endpointId)).toBe(false);

    receiver.hang = false;
    const resumed = await owner.call(`account/webhooks/${owner.appId}/${endpointId}/resume`);
    expect(resumed.statusCode).toBe(200);
    expect(resumed.json().data).toMatchObject({ state: 'active', parkedAt: null, parkedReason: null });
    await eventually(async () => expect(receiver.delivered).toHaveLength(9), 30_000);
    rows = await eventually(async () => {
      const rows = await owner.deliveryRows(endpointId);
      expect(rows.filter((row) => row.state === 'succeeded')).toHaveLength(9);
      return rows;
    });
    expect(new Set(receiver.delivered)).toEqual(new Set(rows.map((row) => row.id)));
    expect(await c.runtime.services.webhooks.sweep()).toBe(0);
    expect(receiver.delivered).toHaveLength(9);
    expect(receiver.idMismatches).toBe(0);
  });

  it("refuses to resume another app's endpoint or a malformed id", async () => {
    const owner = await ownerOfAppOnPlan(c, 'circuit-owner', 70);
    const stranger = await ownerOfAppOnPlan(c, 'circuit-stranger', 71);
    const endpointId = await owner.register(receiver.url);
    expect((await stranger.call(`account/webhooks/${owner.appId}/${endpointId}/resume`)).statusCode).toBe(
      404,
    );
    expect((await stranger.call(`account/webhooks/${stranger.appId}/${endpointId}/resume`)).statusCode).toBe(
      404,
    );
    expect((await owner.call(`account/webhooks/${owner.appId}/not-an-id/resume`)).statusCode).toBe(400);
  });
});

it('tries a parked endpoint again after the cool-down, and a success resumes it', async () => {
  // The test default cool-down is 200 ms.
  const h = await createTestApp({ WEBHOOK_TIMEOUT_MS: '1500' });
  const receiver = await startReceiver();
  try {
    const owner = await ownerOfAppOnPlan(h, 'half-open', 72);
    receiver.hang = true;
    const endpointId = await owner.register(receiver.url);
    await owner.sendTests(endpointId, 6);
    await eventually(async () => expect((await owner.endpoint(endpointId)).state).toBe('parked'), 30_000);
    receiver.hang = false;
    await eventually(async () => expect(receiver.delivered).toHaveLength(6), 30_000);
    await eventually(async () => expect((await owner.endpoint(endpointId)).state).toBe('active'));
    expect(new Set(receiver.delivered).size).toBe(6);
  } finally {
    await receiver.close();
    await h.close();
  }
});

// Webhooks against real HTTP receivers on this machine: registration, the events a rate entry
// causes, signatures, retries with backoff, the delivery log, the address guard, and a queue that is away.
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { count, eq } from 'drizzle-orm';
import type { RateInput, WebhookDelivery } from '@afrofx/shared';
import { accounts, subscriptions, webhookDeliveries, webhookEndpoints } from '../src/db/schema';
import { queueUnavailable } from '../src/queue/queue';
import { createDeskService } from '../src/modules/rates/desk.service';
import { isPrivateAddress } from '../src/modules/webhooks/webhook-target';
import { createWebhooksService } from '../src/modules/webhooks/webhooks.service';
import { developerFactory, type Developer } from './support/developers';
import { startFaultProxy } from './support/fault-proxy';
import { createTestApp, eventually, redisAvailable, type TestApp } from './support/test-app';

// ---- A receiver: answers each request with the next scripted behaviour, then 200. ----
type Behaviour = 'ok' | 'fail' | 'stall';
interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}
interface Receiver {
  url: string;
  port: number;
  received: Received[];
  script(...behaviours: Behaviour[]): void;
  close(): Promise<void>;
}

async function startReceiver(port = 0): Promise<Receiver> {
  const received: Received[] = [];
  let script: Behaviour[] = [];
  const stalled: ServerResponse[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const behaviour = script.shift() ?? 'ok';
      if (behaviour === 'stall') stalled.push(res);
      else res.writeHead(behaviour === 'ok' ? 200 : 500).end(behaviour);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}/hooks`,
    port: actual,
    received,
    script: (...behaviours) => (script = behaviours),
    close: () =>
      new Promise<void>((resolve) => {
        stalled.forEach((res) => res.destroy());
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The receiver's side of the scheme: `t=<unix>,v1=<hex HMAC-SHA256 of "t.body">`, any of its v1 matching. */
function signatureIsValid(received: Received, secret: string): boolean {
  const header = String(received.headers['afrofx-signature'] ?? '');
  const items = header.split(',').map((kv) => kv.split('=') as [string, string]);
  const t = items.find(([key]) => key === 't')?.[1];
  if (!t) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${received.body}`).digest('hex');
  return items.some(([key, value]) => key === 'v1' && value === expected);
}

// ---- The app, a developer with an app on a plan, and an admin. ----
let t: TestApp;
let receiver: Receiver;
let dev: Developer;
let appId: string;
const signUpAndActivate = developerFactory(() => t, 'webhooks', 40);

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, token: string | undefined, payload?: object) =>
  t.app.inject({
    method,
    url: `/v1/${url}`,
    payload,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });

async function createApp(owner: Developer, withPlan: boolean): Promise<string> {
  const id = await t.newApp(owner, 'Treasury alerts');
  if (withPlan) {
    const now = Date.now();
    await t.runtime.database.db.insert(subscriptions).values({
      appId: id,
      planName: 'Test plan',
      status: 'active',
      requestLimit: 1000,
      startsAt: new Date(now - 86_400_000),
      expireAt: new Date(now + 300 * 86_400_000),
    });
  }
  return id;
}

const enterRate = async (rate: RateInput) => (await t.createRate(rate)).json().data as { _id: string };
const nairaCash = (buy: number, sell: number): RateInput => ({
  market: 'black_market_cash',
  base: 'naira',
  asset: 'dollar',
  buy,
  sell,
});

async function register(body: object, owner = dev, app = appId) {
  const res = await call('POST', `account/webhooks/${app}`, owner.token, body);
  expect(res.statusCode).toBe(201);
  return res.json().data as { _id: string; secret: string };
}

async function deliveries(endpointId: string): Promise<WebhookDelivery[]> {
  const res = await call('GET', `account/webhooks/${appId}/${endpointId}/deliveries`, dev.token);
  expect(res.statusCode).toBe(200);
  return res.json().data as WebhookDelivery[];
}

/** Every queued job has run (retries included); with Redis, until the check passes. */
async function settled<T>(check: () => Promise<T>): Promise<T> {
  await t.runtime.queue.drain();
  return eventually(check);
}

const bodies = (r: Receiver) => r.received.map((x) => JSON.parse(x.body) as { id: string; type: string });

beforeAll(async () => {
  // A stalled receiver is given up on after 4 s (the default is 10). Shorter, a loaded machine's answer came after
  // the sender had given up, and the delivery was sent again (at least once, under the same id): the counts below
  // are of a receiver that answers in time.
  t = await createTestApp({ WEBHOOK_TIMEOUT_MS: '4000' });
  receiver = await startReceiver();
  dev = await signUpAndActivate('Kemi', 'Adeyemi');
  appId = await createApp(dev, true);
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});
beforeEach(async () => {
  // Each test starts with no endpoints and a quiet receiver.
  await t.runtime.database.db.delete(webhookEndpoints);
  receiver.received.length = 0;
  receiver.script();
});

describe('POST account/webhooks/{appId}', () => {
  it('registers an endpoint and shows its signing secret once', async () => {
    const res = await call('POST', `account/webhooks/${appId}`, dev.token, {
      url: receiver.url,
      events: ['rate.updated'],
      markets: ['bank'],
      pairs: [{ base: 'rand', asset: 'euro' }],
    });
    expect(res.statusCode).toBe(201);
    const created = res.json().data;
    expect(created).toMatchObject({
      url: receiver.url,
      events: ['rate.updated'],
      markets: ['bank'],
      pairs: [{ base: 'rand', asset: 'euro' }],
      thresholds: [],
      secret: expect.stringMatching(/^afxsig_[A-Za-z0-9_-]{32}$/),
    });
    expect(created.secretHint.endsWith(created.secret.slice(-4))).toBe(true);

    const list = await call('GET', `account/webhooks/${appId}`, dev.token);
    expect(list.statusCode).toBe(200);
    expect(list.json().data).toHaveLength(1);
    expect(list.json().data[0]).not.toHaveProperty('secret');
    expect(list.body).not.toContain(created.secret);
  });

  it('refuses an app without an active plan with 402, and stores nothing', async () => {
    const unpaid = await createApp(dev, false);
    const res = await call('POST', `account/webhooks/${unpaid}`, dev.token, {
      url: receiver.url,
      events: ['rate.updated'],
    });
    expect(res.statusCode).toBe(402);
    expect(res.json().message).toMatch(/active plan/);
    const [stored] = await t.runtime.database.db.select({ n: count() }).from(webhookEndpoints);
    expect(stored!.n).toBe(0);
  });

  it.each([
    [
      'rate.threshold without a threshold',
      { events: ['rate.threshold'] },
      'rate.threshold needs at least one',
    ],
    [
      'an unknown event',
      { events: ['rate.deleted'] },
      'Events must be one of: rate.updated, rate.threshold, rate.corrected.',
    ],
    [
      'a URL that is not http',
      { url: 'ftp://example.com/x', events: ['rate.updated'] },
      'URL must start with http:// or https://.',
    ],
    [
      'a smuggled field',
      { events: ['rate.updated'], secret: 'mine' },
      'The field "secret" is not accepted here.',
    ],
  ])('answers 400 to %s', async (_name, body, message) => {
    const res = await call('POST', `account/webhooks/${appId}`, dev.token, { url: receiver.url, ...body });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(message);
  });

  it("answers 404 for another developer's app", async () => {
    const other = await signUpAndActivate('Eve', 'Mallory');
    const res = await call('POST', `account/webhooks/${appId}`, other.token, {
      url: receiver.url,
      events: ['rate.updated'],
    });
    expect(res.statusCode).toBe(404);
    expect((await call('GET', `account/webhooks/${appId}`, other.token)).statusCode).toBe(404);
  });
});

describe('rate.threshold', () => {
  it('fires once per crossing with a valid signature: up, not again on the same side, then down', async () => {
    await enterRate(nairaCash(1500, 1550));
    const endpoint = await register({
      url: receiver.url,
      events: ['rate.threshold'],
      thresholds: [
        { market: 'black_market_cash', base: 'naira', asset: 'dollar', side: 'sell', level: 1600 },
      ],
    });

    await enterRate(nairaCash(1580, 1620));
    const [first] = await settled(async () => {
      expect(receiver.received).toHaveLength(1);
      return receiver.received;
    });
    expect(signatureIsValid(first!, endpoint.secret)).toBe(true);
    expect(signatureIsValid(first!, 'whsec_someone-else')).toBe(false);
    expect(first!.headers['afrofx-event']).toBe('rate.threshold');
    const body = JSON.parse(first!.body);
    expect(body).toMatchObject({
      type: 'rate.threshold',
      id: first!.headers['afrofx-delivery'],
      data: {
        rate: { market: 'black_market_cash', base: 'naira', asset: 'dollar', buy: 1580, sell: 1620 },
        threshold: { side: 'sell', level: 1600, direction: 'up', price: 1620, lastPosition: 'above' },
      },
    });

    // Still above, and then exactly on the level: no crossing.
    await enterRate(nairaCash(1590, 1650));
    await enterRate(nairaCash(1560, 1600));
    // A rate of another market or pair does not touch the threshold.
    await enterRate({ ...nairaCash(1000, 1000), market: 'bank' });
    await settled(async () => expect(receiver.received).toHaveLength(1));

    await enterRate(nairaCash(1500, 1590));
    await settled(async () => expect(receiver.received).toHaveLength(2));
    expect(JSON.parse(receiver.received[1]!.body).data.threshold).toMatchObject({ direction: 'down' });
    expect(signatureIsValid(receiver.received[1]!, endpoint.secret)).toBe(true);

    // The receiver has the body before the sender records the answer.
    await eventually(async () => {
      const log = await deliveries(endpoint._id);
      expect(log.map((d) => [d.event, d.state, d.attempts, d.responseCode])).toEqual([
        ['rate.threshold', 'succeeded', 1, 200],
        ['rate.threshold', 'succeeded', 1, 200],
      ]);
    });
  });

  it('fires once when two admins enter crossing rates at the same moment', async () => {
    await enterRate(nairaCash(1500, 1550));
    await register({
      url: receiver.url,
      events: ['rate.threshold'],
      thresholds: [{ market: 'black_market_cash', base: 'naira', asset: 'dollar', side: 'buy', level: 1550 }],
    });
    await Promise.all([enterRate(nairaCash(1560, 1600)), enterRate(nairaCash(1570, 1610))]);
    await settled(async () => expect(receiver.received).toHaveLength(1));
  });
});

describe('rate.updated', () => {
  it('is sent for the chosen pairs and markets only', async () => {
    await register({
      url: receiver.url,
      events: ['rate.updated'],
      markets: ['bank', 'black_market_cash'],
      pairs: [{ base: 'naira', asset: 'dollar' }],
    });
    await enterRate({ ...nairaCash(1400, 1420), market: 'bank' });
    await enterRate({ ...nairaCash(1400, 1420), market: 'black_market_transfer' });
    await enterRate({ ...nairaCash(1400, 1420), asset: 'euro' });
    await enterRate(nairaCash(1500, 1550));
    await settled(async () => expect(receiver.received).toHaveLength(2));
    expect(bodies(receiver).map((b) => b.type)).toEqual(['rate.updated', 'rate.updated']);
    expect(receiver.received.map((r) => JSON.parse(r.body).data.rate.market).sort()).toEqual([
      'bank',
      'black_market_cash',
    ]);
  });
});

describe('retries', () => {
  it('retries a receiver that answers 500 once, and logs both attempts', async () => {
    const endpoint = await register({ url: receiver.url, events: ['rate.updated'] });
    receiver.script('fail', 'ok');
    await enterRate(nairaCash(1500, 1550));

    const [delivery] = await settled(async () => {
      const log = await deliveries(endpoint._id);
      expect(log[0]?.state).toBe('succeeded');
      return log;
    });
    expect(log(delivery!)).toEqual([
      [1, 500, 'The endpoint answered 500'],
      [2, 200, null],
    ]);
    expect(delivery).toMatchObject({ attempts: 2, responseCode: 200, error: null, nextAttemptAt: null });
    expect(receiver.received).toHaveLength(2);
    // The same event both times, each attempt signed afresh with the endpoint's secret.
    expect(new Set(bodies(receiver).map((b) => b.id)).size).toBe(1);
    expect(receiver.received.every((r) => signatureIsValid(r, endpoint.secret))).toBe(true);
  });

  it('retries a receiver that stalls, and sends nothing more once it has answered', async () => {
    const endpoint = await register({ url: receiver.url, events: ['rate.updated'] });
    receiver.script('stall', 'ok');
    await enterRate(nairaCash(1500, 1550));
    const [delivery] = await settled(async () => {
      const log = await deliveries(endpoint._id);
      expect(log[0]?.state).toBe('succeeded');
      return log;
    });
    expect(log(delivery!)).toEqual([
      [1, null, 'No answer within 4000 ms'],
      [2, 200, null],
    ]);
    expect(receiver.received).toHaveLength(2);

    // A sweep finds nothing left to send.
    expect(await t.runtime.services.webhooks.sweep()).toBe(0);
    await t.runtime.queue.drain();
    expect(receiver.received).toHaveLength(2);
  });

  it('retries a receiver that is down until it is back, and delivers once', async () => {
    const down = await startReceiver();
    const port = down.port;
    await down.close();
    const endpoint = await register({ url: `http://127.0.0.1:${port}/hooks`, events: ['rate.updated'] });
    await enterRate(nairaCash(1500, 1550));
    await eventually(async () => {
      const [delivery] = await deliveries(endpoint._id);
      expect(delivery?.attempts).toBeGreaterThanOrEqual(2);
      expect(delivery?.error).toMatch(/Could not connect/);
      expect(delivery?.state).toBe('pending');
    });

    const back = await startReceiver(port);
    try {
      const [delivery] = await settled(async () => {
        const log = await deliveries(endpoint._id);
        expect(log[0]?.state).toBe('succeeded');
        return log;
      });
      expect(back.received).toHaveLength(1);
      expect(delivery!.attemptLog.at(-1)).toMatchObject({ responseCode: 200 });
      expect(delivery!.attemptLog.slice(0, -1).every((a) => a.responseCode === null)).toBe(true);
    } finally {
      await back.close();
    }
  });
});

describe('a rate entered while the queue is away', () => {
  it('is accepted, keeps its delivery, and the sweep sends it once', async () => {
    const endpoint = await register({ url: receiver.url, events: ['rate.updated'] });
    const db = t.runtime.database.db;
    const unavailable = async () => {
      throw queueUnavailable();
    };
    // The rates service as the API builds it, on the same database, with a queue that refuses every job.
    const webhooksWithoutQueue = createWebhooksService(db, unavailable, t.config.webhooks);
    const desk = createDeskService({
      db,
      changes: t.runtime.changes,
      webhooks: webhooksWithoutQueue,
      settings: t.runtime.services.settings,
      enqueue: unavailable,
    });
    const [admin] = await db
      .select({ id: accounts.id })
      .from(accounts)
      .where(eq(accounts.role, 'admin'))
      .limit(1);
    const rate = await desk.create(nairaCash(1500, 1550), admin!.id);
    expect(rate._id).toBeDefined();

    await t.runtime.queue.drain();
    expect(receiver.received).toHaveLength(0);
    expect((await deliveries(endpoint._id)).map((d) => d.state)).toEqual(['pending']);

    // The queue is back: the sweep job finds the delivery.
    expect(await t.runtime.services.webhooks.sweep()).toBe(1);
    await settled(async () => expect(receiver.received).toHaveLength(1));
    expect(JSON.parse(receiver.received[0]!.body).data.rate._id).toBe(rate._id);

    // A second sweep, and the job queued twice, send nothing more.
    expect(await t.runtime.services.webhooks.sweep()).toBe(0);
    expect(await t.runtime.services.webhooks.deliverNext(endpoint._id)).toBe(false);
    await t.runtime.queue.drain();
    expect(receiver.received).toHaveLength(1);
  });
});

// Needs a Redis server (REDIS_URL): without Redis the queue is the database, which stores the rate too.
(redisAvailable ? describe : describe.skip)('a rate entered while Redis is cut', () => {
  it('is accepted with its delivery kept, and the sweep sends it once when Redis is back', async () => {
    const { hostname, port } = new URL(process.env.REDIS_URL!);
    const proxy = await startFaultProxy(hostname, Number(port || 6379));
    const cutOff = await createTestApp({ REDIS_URL: proxy.url(process.env.REDIS_URL!) });
    try {
      await eventually(() => cutOff.runtime.queue.ping());
      const owner = await developerFactory(() => cutOff, 'webhooks-redis', 43)();
      const cutApp = await cutOff.newApp(owner, 'Redis cut');
      await cutOff.runtime.database.db.insert(subscriptions).values({
        appId: cutApp,
        planName: 'Test plan',
        status: 'active',
        requestLimit: 10,
        startsAt: new Date(Date.now() - 1000),
        expireAt: new Date(Date.now() + 86_400_000),
      });
      const registered = await cutOff.app.inject({
        method: 'POST',
        url: `/v1/account/webhooks/${cutApp}`,
        payload: { url: receiver.url, events: ['rate.updated'] },
        headers: { authorization: `Bearer ${owner.token}` },
      });
      expect(registered.statusCode).toBe(201);
      // The admin signs in while Redis is still reachable.
      await cutOff.adminToken();

      proxy.cut();
      const entered = await cutOff.createRate(nairaCash(1500, 1550));
      const rows = await cutOff.runtime.database.db.select().from(webhookDeliveries);
      expect(rows.map((r) => [r.state, r.attempts])).toEqual([['pending', 0]]);

      proxy.restore();
      await eventually(async () => expect(await cutOff.runtime.services.webhooks.sweep()).toBe(1));
      await eventually(async () => {
        const [row] = await cutOff.runtime.database.db.select().from(webhookDeliveries);
        expect(row?.state).toBe('succeeded');
      });
      expect(receiver.received).toHaveLength(1);
      expect(JSON.parse(receiver.received[0]!.body).data.rate._id).toBe(entered.json().data._id);
      expect(await cutOff.runtime.services.webhooks.sweep()).toBe(0);
    } finally {
      proxy.restore();
      await cutOff.close();
      await proxy.close();
    }
  });
});

describe('the signing secret and the endpoint', () => {
  it('signs with the new secret after a rotation, sends a test event, and deletes the endpoint', async () => {
    const endpoint = await register({ url: receiver.url, events: ['rate.updated'] });
    const rotated = await call('POST', `account/webhooks/${appId}/${endpoint._id}/rotate_secret`, dev.token);
    expect(rotated.statusCode).toBe(200);
    const secret = rotated.json().data.secret as string;
    expect(secret).not.toBe(endpoint.secret);
    expect(rotated.json().data.secretRotatedAt).toEqual(expect.any(String));

    const test = await call('POST', `account/webhooks/${appId}/${endpoint._id}/test`, dev.token);
    expect(test.statusCode).toBe(202);
    expect(test.json().data).toMatchObject({ event: 'webhook.test', state: 'pending', attempts: 0 });
    await settled(async () => expect(receiver.received).toHaveLength(1));
    // Within the rotation's overlap both secrets verify: two v1 signatures.
    expect(String(receiver.received[0]!.headers['afrofx-signature']).match(/v1=/g)).toHaveLength(2);
    expect(signatureIsValid(receiver.received[0]!, secret)).toBe(true);
    expect(signatureIsValid(receiver.received[0]!, endpoint.secret)).toBe(true);
    expect(signatureIsValid(receiver.received[0]!, 'afxsig_someone-else')).toBe(false);
    expect(bodies(receiver)[0]).toMatchObject({ type: 'webhook.test', id: test.json().data._id });

    // Once the overlap is over, only the new secret signs.
    await t.runtime.database.db
      .update(webhookEndpoints)
      .set({ previousSecretExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(webhookEndpoints.id, endpoint._id));
    const later = await call('POST', `account/webhooks/${appId}/${endpoint._id}/test`, dev.token);
    expect(later.statusCode).toBe(202);
    await settled(async () => expect(receiver.received).toHaveLength(2));
    expect(String(receiver.received[1]!.headers['afrofx-signature']).match(/v1=/g)).toHaveLength(1);
    expect(signatureIsValid(receiver.received[1]!, secret)).toBe(true);
    expect(signatureIsValid(receiver.received[1]!, endpoint.secret)).toBe(false);

    const removed = await call('DELETE', `account/webhooks/${appId}/${endpoint._id}`, dev.token);
    expect(removed.statusCode).toBe(200);
    expect((await call('GET', `account/webhooks/${appId}`, dev.token)).json().data).toEqual([]);
    const again = await call('DELETE', `account/webhooks/${appId}/${endpoint._id}`, dev.token);
    expect(again.statusCode).toBe(404);
    const [left] = await t.runtime.database.db
      .select({ n: count() })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpoint._id));
    expect(left!.n).toBe(0);
  });
});

describe('targets on private addresses, without WEBHOOK_ALLOW_PRIVATE_TARGETS', () => {
  let guarded: TestApp;
  let owner: Developer;
  let guardedApp: string;
  beforeAll(async () => {
    guarded = await createTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' });
    owner = await developerFactory(() => guarded, 'webhooks-guard', 42)();
    guardedApp = await guarded.newApp(owner, 'Guarded');
    await guarded.runtime.database.db.insert(subscriptions).values({
      appId: guardedApp,
      planName: 'Test plan',
      status: 'active',
      requestLimit: 10,
      startsAt: new Date(Date.now() - 1000),
      expireAt: new Date(Date.now() + 86_400_000),
    });
  });
  afterAll(() => guarded.close());

  it.each([
    'http://169.254.169.254/latest/meta-data/',
    `http://localhost:9/hooks`,
    'http://127.0.0.1/',
    'http://10.0.0.7/',
    'http://100.64.1.1/',
    'http://[::1]/',
    'http://[fe80::1]/',
    'http://[fd00::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://0.0.0.0/',
  ])('refuses %s with 400 and stores nothing', async (url) => {
    const res = await guarded.app.inject({
      method: 'POST',
      url: `/v1/account/webhooks/${guardedApp}`,
      payload: { url, events: ['rate.updated'] },
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/private, loopback or link-local/);
    const [stored] = await guarded.runtime.database.db.select({ n: count() }).from(webhookEndpoints);
    expect(stored!.n).toBe(0);
  });

  it('checks again at delivery: an endpoint whose name now resolves privately gets nothing', async () => {
    // As if `localhost` had resolved to a public address at registration.
    const [row] = await guarded.runtime.database.db
      .insert(webhookEndpoints)
      .values({
        appId: guardedApp,
        url: `http://localhost:${receiver.port}/hooks`,
        secret: 'whsec_test',
        events: ['rate.updated'],
      })
      .returning();
    await guarded.createRate(nairaCash(1500, 1550));
    const [delivery] = await eventually(async () => {
      const rows = await guarded.runtime.database.db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.endpointId, row!.id));
      expect(rows[0]?.state).toBe('pending');
      expect(rows[0]?.attempts).toBeGreaterThanOrEqual(1);
      return rows;
    });
    expect(delivery!.lastError).toMatch(/private, loopback or link-local/);
    expect(receiver.received).toHaveLength(0);
    await guarded.runtime.database.db.delete(webhookEndpoints);
  });

  it('knows the refused ranges, and lets public addresses through', () => {
    for (const address of [
      '169.254.169.254',
      '172.16.0.1',
      '192.168.1.1',
      '100.127.255.255',
      '::',
      '::1',
      'fe80::abcd',
      'fc00::1',
      '::ffff:10.0.0.1',
      '64:ff9b::7f00:1',
    ])
      expect([address, isPrivateAddress(address)]).toEqual([address, true]);
    for (const address of ['8.8.8.8', '100.128.0.1', '172.32.0.1', '2001:4860:4860::8888', '::ffff:8.8.8.8'])
      expect([address, isPrivateAddress(address)]).toEqual([address, false]);
  });
});

function log(delivery: WebhookDelivery) {
  return delivery.attemptLog.map((a) => [a.attempt, a.responseCode, a.error]);
}

describe('the OpenAPI document', () => {
  it('lists every webhook call with examples, and shows how to verify a signature in JS and Python', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const calls = [
      ['post', '/v1/account/webhooks/{appId}'],
      ['get', '/v1/account/webhooks/{appId}'],
      ['delete', '/v1/account/webhooks/{appId}/{endpointId}'],
      ['post', '/v1/account/webhooks/{appId}/{endpointId}/rotate_secret'],
      ['post', '/v1/account/webhooks/{appId}/{endpointId}/test'],
      ['post', '/v1/account/webhooks/{appId}/{endpointId}/resume'],
      ['get', '/v1/account/webhooks/{appId}/{endpointId}/deliveries'],
    ] as const;
    for (const [method, path] of calls) {
      const operation = doc.paths[path]?.[method];
      expect([path, method, operation?.tags]).toEqual([path, method, ['Webhooks']]);
    }
    const create = JSON.stringify(doc.paths['/v1/account/webhooks/{appId}'].post);
    expect(create).toContain('https://example.com/afrofx/webhooks');
    expect(create).toContain('afxsig_');
    expect(JSON.stringify(doc.paths['/v1/account/webhooks/{appId}/{endpointId}/deliveries'].get)).toContain(
      'The endpoint answered 500',
    );
    const guide = doc.tags.find((tag: { name: string }) => tag.name === 'Webhooks').description as string;
    expect(guide).toContain('```javascript');
    expect(guide).toContain('```python');
    expect(guide).toContain('AfroFX-Signature');
  });
});

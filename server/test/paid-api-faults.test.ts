// The paid API when its servers fail: nothing served goes unlogged, no app is served over its quota, no
// request hangs on a dead Redis, and refusals and unknown keys cost little. Database faults are real errors of the
// real database (a table moved away and back); Redis faults go through a TCP proxy that cuts or stalls the real
// connection.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { eq, sql, sum } from 'drizzle-orm';
import { requestLogs } from '../src/db/schema';
import { startFaultProxy, type FaultProxy } from './support/fault-proxy';
import { paidClient, subscriptionRow, type PaidClient } from './support/paid-api';
import { createTestApp, deleteRedisKeys, eventually, redisAvailable, type TestApp } from './support/test-app';

const FAST_FLUSH = { REQUEST_LOG_FLUSH_MS: '50' };
const describeWithRedis = redisAvailable ? describe : describe.skip;

async function logged(t: TestApp, appId: string, status?: number) {
  const [row] = await t.runtime.database.db
    .select({ requests: sum(requestLogs.count).mapWith(Number), rows: sql<number>`count(*)`.mapWith(Number) })
    .from(requestLogs)
    .where(
      status === undefined
        ? eq(requestLogs.appId, appId)
        : sql`${requestLogs.appId} = ${appId} AND ${requestLogs.status} = ${status}`,
    );
  return { requests: row?.requests ?? 0, rows: row?.rows ?? 0 };
}

const rates = (t: TestApp, client: PaidClient, n: number, url = '/v1/rates') =>
  Promise.all(
    Array.from({ length: n }, () => t.app.inject({ method: 'GET', url, headers: client.headers })),
  ).then((responses) => responses.map((r) => r.statusCode));

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

async function health(t: TestApp) {
  const res = await t.app.inject({ method: 'GET', url: '/v1/health' });
  return { status: res.statusCode, requestLog: res.json().data.requestLog };
}

describe('request-log writes when the database fails', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ ...FAST_FLUSH, REQUEST_LOG_UNHEALTHY_AFTER_MS: '1' });
    await t.createRate({ market: 'bank', asset: 'dollar', base: 'naira', buy: 1450, sell: 1470 });
  });
  afterAll(() => t.close());

  it('keeps what it could not write, says so in /v1/health, and writes it once, in order, when the database is back', async () => {
    const client = await paidClient(t, { limit: 1000, processed: 0 });
    const db = t.runtime.database.db;
    expect(await rates(t, client, 10)).toEqual(Array(10).fill(200));
    await eventually(async () => expect((await logged(t, client.appId)).requests).toBe(10));

    await db.execute(sql`ALTER TABLE request_logs RENAME TO request_logs_away`);
    try {
      expect(await rates(t, client, 25)).toEqual(Array(25).fill(200));
      await eventually(async () => {
        const during = await health(t);
        expect(during.status).toBe(503);
        expect(during.requestLog).toMatchObject({ ok: false, buffered: 25 });
        expect(during.requestLog.failingSince).not.toBeNull();
      });
    } finally {
      await db.execute(sql`ALTER TABLE request_logs_away RENAME TO request_logs`);
    }

    await eventually(async () => expect((await logged(t, client.appId)).requests).toBe(35));
    await eventually(async () => {
      const after = await health(t);
      expect(after.status).toBe(200);
      expect(after.requestLog).toMatchObject({ ok: true, buffered: 0, failingSince: null, dropped: 0 });
    });
    // Served after the outage too, and the stored count caught up with what was served.
    expect(await rates(t, client, 5)).toEqual(Array(5).fill(200));
    await eventually(async () => expect((await logged(t, client.appId)).requests).toBe(40));
    await eventually(async () =>
      expect((await subscriptionRow(t, client.subscriptionId!)).processedRequests).toBe(40),
    );
  });

  it('keeps serving the last rates it read while the database cannot be read', async () => {
    const client = await paidClient(t, { limit: 1000 });
    const before = await t.app.inject({ method: 'GET', url: '/v1/rates', headers: client.headers });
    expect(before.statusCode).toBe(200);
    const db = t.runtime.database.db;
    await db.execute(sql`ALTER VIEW served_rates RENAME TO served_rates_away`);
    try {
      // Past the snapshot's one-second age, so the next request tries the database and fails.
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const during = await t.app.inject({ method: 'GET', url: '/v1/rates', headers: client.headers });
      expect(during.statusCode).toBe(200);
      // The same quotes, a second older.
      const withoutAge = (quotes: Array<Record<string, unknown>>) =>
        quotes.map(({ ageSeconds: _, ...quote }) => quote);
      expect(withoutAge(during.json().data)).toEqual(withoutAge(before.json().data));
    } finally {
      await db.execute(sql`ALTER VIEW served_rates_away RENAME TO served_rates`);
    }
  });

  it('keeps trying at shutdown for a few seconds, so a database back by then gets every entry', async () => {
    const stopping = await createTestApp(FAST_FLUSH);
    try {
      const client = await paidClient(stopping, { limit: 100 });
      const db = stopping.runtime.database.db;
      await db.execute(sql`ALTER TABLE request_logs RENAME TO request_logs_away`);
      expect(await rates(stopping, client, 12)).toEqual(Array(12).fill(200));
      const closed = stopping.app.close();
      await new Promise((resolve) => setTimeout(resolve, 600));
      await db.execute(sql`ALTER TABLE request_logs_away RENAME TO request_logs`);
      await closed;
      expect(await logged(stopping, client.appId)).toEqual({ requests: 12, rows: 12 });
    } finally {
      await stopping.close();
    }
  });

  it('writes a batch sent twice under the same id only once', async () => {
    const client = await paidClient(t, { limit: 10 });
    const entry = {
      appId: client.appId,
      host: 'api.test',
      agent: 'retry',
      ipAddress: '127.0.0.1',
      originalUrl: '/v1/rates',
      status: 200,
      latencyMs: 1,
      createdAt: new Date(),
    };
    const batchId = crypto.randomUUID();
    await t.runtime.services.requests.record([entry, entry], batchId);
    await t.runtime.services.requests.record([entry, entry], batchId);
    expect(await logged(t, client.appId)).toEqual({ requests: 2, rows: 2 });
  });

  it('does not charge a request that ends in a server error, and logs it with its status', async () => {
    const client = await paidClient(t, { limit: 10, processed: 0 });
    const db = t.runtime.database.db;
    await db.execute(sql`ALTER VIEW served_rates RENAME TO served_rates_away`);
    let statuses: number[];
    try {
      statuses = await rates(t, client, 3, '/v1/rates/history?market=bank&base=naira&asset=dollar');
    } finally {
      await db.execute(sql`ALTER VIEW served_rates_away RENAME TO served_rates`);
    }
    expect(statuses).toEqual([500, 500, 500]);
    await eventually(async () =>
      expect(await logged(t, client.appId, 500)).toEqual({ requests: 3, rows: 3 }),
    );
    const ok = await t.app.inject({
      method: 'GET',
      url: '/v1/rates/history?market=bank&base=naira&asset=dollar',
      headers: client.headers,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['ratelimit-remaining']).toBe('9');
    await eventually(async () =>
      expect((await subscriptionRow(t, client.subscriptionId!)).processedRequests).toBe(1),
    );
  });

  it('does not charge a request whose client went away before the answer, and logs it as 499', async () => {
    const client = await paidClient(t, { limit: 10, processed: 0 });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as { port: number };
    const db = t.runtime.database.db;
    // The history query waits behind this lock until the client has given up.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const lockHeld = new Promise<void>((resolve) => (locked = resolve));
    const holder = db.transaction(async (tx) => {
      await tx.execute(sql`LOCK TABLE rates IN ACCESS EXCLUSIVE MODE`);
      locked();
      await released;
    });
    await lockHeld;
    const aborter = new AbortController();
    const arrived = new Promise<IncomingMessage>((resolve) => t.app.server.once('request', resolve));
    const request = fetch(`http://127.0.0.1:${port}/v1/rates/history?market=bank&base=naira&asset=dollar`, {
      headers: client.headers,
      signal: aborter.signal,
    }).catch((err: unknown) => err);
    // The server has the request before the client gives up, and sees it go before the lock lifts.
    const received = await arrived;
    const gone = new Promise((resolve) => received.socket.once('close', resolve));
    aborter.abort();
    await request;
    await gone;
    await new Promise((resolve) => setImmediate(resolve));
    // The embedded database runs one transaction at a time: look at the log once the lock is gone.
    release();
    await holder;
    await eventually(async () => expect(await logged(t, client.appId, 499)).toMatchObject({ requests: 1 }));
    // The handler finishes its query after the client left: nothing more is logged and nothing is counted.
    const next = await t.app.inject({ method: 'GET', url: '/v1/rates', headers: client.headers });
    expect(next.headers['ratelimit-remaining']).toBe('9');
    await eventually(async () => expect((await logged(t, client.appId)).requests).toBe(2));
    // The durable count is written after the log's flush commits (with Redis, from the flush's afterFlush).
    await eventually(async () =>
      expect((await subscriptionRow(t, client.subscriptionId!)).processedRequests).toBe(1),
    );
  });
});

describe('refused calls and unknown keys', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(FAST_FLUSH);
  });
  afterAll(() => t.close());

  it('folds the refusals of a key into one row per status and flush, with their number', async () => {
    const noPlan = await paidClient(t, null);
    const statuses = await rates(t, noPlan, 400);
    expect(count(statuses, 402)).toBe(400);
    await eventually(async () => expect((await logged(t, noPlan.appId)).requests).toBe(400));
    const { rows } = await logged(t, noPlan.appId);
    // One row per flush interval at most: the 400 answers took far fewer than 400 flushes.
    expect(rows).toBeLessThan(40);
  });

  it('refuses an address that tries many unknown keys, without looking each one up, and still serves others', async () => {
    const valid = await paidClient(t, { limit: 1000 });
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/v1/rates',
        remoteAddress: '203.0.113.9',
        headers: { authorization: `Bearer sk_${randomBytes(24).toString('base64url')}` },
      });
      statuses.push(res.statusCode);
    }
    expect(count(statuses, 401)).toBe(30);
    expect(count(statuses, 429)).toBe(30);
    expect(statuses.slice(30).every((s) => s === 429)).toBe(true);
    const other = await t.app.inject({
      method: 'GET',
      url: '/v1/rates',
      remoteAddress: '198.51.100.7',
      headers: valid.headers,
    });
    expect(other.statusCode).toBe(200);
    // A valid key from the refused address is served too: it is cached, and a valid key gives its look-up back.
    const sameAddress = await t.app.inject({
      method: 'GET',
      url: '/v1/rates',
      remoteAddress: '203.0.113.9',
      headers: valid.headers,
    });
    expect(sameAddress.statusCode).toBe(200);
  });
});

describeWithRedis('the Redis quota when Redis fails (REDIS_URL)', () => {
  let proxy: FaultProxy;
  let t: TestApp;
  beforeAll(async () => {
    const redis = new URL(process.env.REDIS_URL!);
    proxy = await startFaultProxy(redis.hostname, Number(redis.port || 6379));
    t = await createTestApp({
      ...FAST_FLUSH,
      REDIS_URL: proxy.url(process.env.REDIS_URL!),
      API_BURST_PER_SECOND: '100000',
    });
  });
  afterAll(async () => {
    proxy.restore();
    await t.close();
    await proxy.close();
  });

  it('never serves over the quota when Redis loses its data: the durable count is the floor, not a cached one', async () => {
    const client = await paidClient(t, { limit: 300, processed: 0 });
    expect(count(await rates(t, client, 100), 200)).toBe(100);
    await eventually(async () =>
      expect((await subscriptionRow(t, client.subscriptionId!)).processedRequests).toBe(100),
    );
    // What `redis-cli FLUSHALL` does to this test's keys; the key cache still holds a count of 0 from its load.
    await deleteRedisKeys(process.env.REDIS_URL!, t.runtime.keyPrefix);
    const statuses = await rates(t, client, 250);
    expect(count(statuses, 200)).toBe(200);
    expect(count(statuses, 429)).toBe(50);
    await eventually(async () =>
      expect((await subscriptionRow(t, client.subscriptionId!)).processedRequests).toBe(300),
    );
  });

  it('keeps serving from PostgreSQL while Redis is cut off, exactly to the quota, and hands the count back', async () => {
    const client = await paidClient(t, { limit: 50, processed: 0 });
    expect(count(await rates(t, client, 20), 200)).toBe(20);
    proxy.cut();
    try {
      const during = await rates(t, client, 60);
      expect(count(during, 500)).toBe(0);
      expect(count(during, 200)).toBe(30);
      expect(count(during, 429)).toBe(30);
    } finally {
      proxy.restore();
    }
    // Back on Redis: the month is spent there too.
    await eventually(async () => {
      const after = await rates(t, client, 5);
      expect(after).toEqual(Array(5).fill(429));
    });
    await eventually(async () =>
      expect((await subscriptionRow(t, client.subscriptionId!)).processedRequests).toBe(50),
    );
    await eventually(async () => expect((await logged(t, client.appId, 200)).requests).toBe(50));
  });

  it('counts exactly when the connection drops with the takes of many requests on the wire', async () => {
    const client = await paidClient(t, { limit: 40, processed: 0 });
    expect(count(await rates(t, client, 10), 200)).toBe(10);
    // The stalled proxy holds the script call carrying these takes; the cut then drops it unseen by Redis.
    proxy.stall();
    const during = rates(t, client, 50);
    await eventually(async () => expect(proxy.heldBytes()).toBeGreaterThan(0));
    proxy.cut();
    try {
      const statuses = await during;
      expect(count(statuses, 500)).toBe(0);
      expect(count(statuses, 200)).toBe(30);
      expect(count(statuses, 429)).toBe(20);
    } finally {
      proxy.restore();
    }
    await eventually(async () => expect(await rates(t, client, 3)).toEqual([429, 429, 429]));
    await eventually(async () =>
      expect((await subscriptionRow(t, client.subscriptionId!)).processedRequests).toBe(40),
    );
  });

  it('answers while Redis stalls, without a server error, and counts exactly', async () => {
    const client = await paidClient(t, { limit: 30, processed: 0 });
    expect(count(await rates(t, client, 10), 200)).toBe(10);
    proxy.stall();
    try {
      const during = await rates(t, client, 40);
      expect(count(during, 500)).toBe(0);
      expect(count(during, 200)).toBe(20);
    } finally {
      proxy.restore();
    }
    await eventually(async () => expect(await rates(t, client, 3)).toEqual([429, 429, 429]));
  });
});

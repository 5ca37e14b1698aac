import type { FastifyInstance } from 'fastify';
import { eq, sum } from 'drizzle-orm';
import IORedis from 'ioredis';
import { requestLogs } from '../src/db/schema';
import { hashPrivateKey } from '../src/modules/api-keys/api-key-material';
import { paidClient, siblingApp, subscriptionRow, type PaidClient } from './support/paid-api';
import { createTestApp, eventually, redisAvailable, redisValues, type TestApp } from './support/test-app';

const serversAvailable = Boolean(process.env.DATABASE_URL) && redisAvailable;
// Two API instances can share a database only on a PostgreSQL server; these run whenever DATABASE_URL and REDIS_URL are set.
const describeWithServers = serversAvailable ? describe : describe.skip;
// The Postgres quota store (a server without Redis) runs whenever DATABASE_URL is set.
const describeWithPostgres = process.env.DATABASE_URL ? describe : describe.skip;

const INVALID_KEY =
  'Invalid or missing API key. Send your private key as: Authorization: Bearer <private key>.';
const FAST_FLUSH = { REQUEST_LOG_FLUSH_MS: '50' };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(FAST_FLUSH);
  const rates = [
    { market: 'bank', asset: 'dollar', base: 'naira', buy: 1450, sell: 1470 },
    { market: 'black_market_cash', asset: 'dollar', base: 'naira', buy: 1490, sell: 1520 },
    { market: 'bank', asset: 'euro', base: 'rand', buy: 20, sell: 21 },
  ];
  for (const payload of rates) await t.createRate(payload);
});
afterAll(() => t.close());

/** Requests the log accounts for: a row each, or one row with their number for folded refusals. */
async function logCount(test: TestApp, appId: string) {
  const [row] = await test.runtime.database.db
    .select({ value: sum(requestLogs.count).mapWith(Number) })
    .from(requestLogs)
    .where(eq(requestLogs.appId, appId));
  return row?.value ?? 0;
}

describe('authentication with a private key', () => {
  it.each([
    ['no Authorization header', {}],
    ['a Basic header', { authorization: 'Basic dXNlcjpwYXNz' }],
    ['an empty bearer', { authorization: 'Bearer ' }],
    ['a key of the wrong shape', { authorization: 'Bearer pk_0123456789abcdef0123' }],
    ['a key with odd characters', { authorization: "Bearer sk_'; drop table api_keys;--xxxxx" }],
    ['an unknown key', { authorization: 'Bearer sk_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }],
    ['a very long key', { authorization: `Bearer sk_${'a'.repeat(5000)}` }],
  ])('refuses %s with 401 and one message', async (_name, headers) => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/rates', headers });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe(INVALID_KEY);
  });

  it('stops the old key as soon as the key is rotated, and serves the new one', async () => {
    const client = await paidClient(t);
    expect(
      (await t.app.inject({ method: 'GET', url: '/v1/rates', headers: client.headers })).statusCode,
    ).toBe(200);
    const rotated = await t.runtime.services.apps.generateKey(client.appId);
    expect(
      (await t.app.inject({ method: 'GET', url: '/v1/rates', headers: client.headers })).statusCode,
    ).toBe(401);
    const fresh = await t.app.inject({
      method: 'GET',
      url: '/v1/rates',
      headers: { authorization: `Bearer ${rotated.private_key}` },
    });
    expect(fresh.statusCode).toBe(200);
  });

  it("stops an account's keys when an admin disables it, and serves them again when enabled", async () => {
    const client = await paidClient(t);
    const admin = await t.adminHeaders();
    expect(
      (await t.app.inject({ method: 'GET', url: '/v1/rates', headers: client.headers })).statusCode,
    ).toBe(200);
    const disabled = await t.app.inject({
      method: 'PUT',
      url: `/v1/admin/disable_account/${client.accountId}`,
      headers: admin,
    });
    expect(disabled.json().message).toBe('Account successfully disabled.');
    expect(
      (await t.app.inject({ method: 'GET', url: '/v1/rates', headers: client.headers })).statusCode,
    ).toBe(401);
    await t.app.inject({
      method: 'PUT',
      url: `/v1/admin/enable_account/${client.accountId}`,
      headers: admin,
    });
    expect(
      (await t.app.inject({ method: 'GET', url: '/v1/rates', headers: client.headers })).statusCode,
    ).toBe(200);
  });
});

describe('plans and the monthly quota', () => {
  it('answers 402 to an app without a plan, with an expired plan, or with a plan not started yet', async () => {
    const none = await paidClient(t, null);
    const expired = await paidClient(t, {
      startsAt: new Date(Date.now() - 400 * 86_400_000),
      expireAt: new Date(Date.now() - 86_400_000),
    });
    const later = await paidClient(t, { status: 'upcoming', startsAt: new Date(Date.now() + 86_400_000) });
    for (const client of [none, expired, later]) {
      const res = await t.app.inject({ method: 'GET', url: '/v1/rates', headers: client.headers });
      expect(res.statusCode).toBe(402);
      expect(res.json().message).toContain('no active plan');
    }
  });

  it('serves a premium customer without a plan and without a monthly limit', async () => {
    const premium = await paidClient(t, null, { premium: true });
    const res = await t.app.inject({ method: 'GET', url: '/v1/rates', headers: premium.headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['ratelimit-limit']).toBeUndefined();
    await eventually(async () => expect(await logCount(t, premium.appId)).toBe(1));
  });

  it('sends RateLimit headers and counts each 2xx once', async () => {
    const client = await paidClient(t, { limit: 10, processed: 3 });
    const res = await t.app.inject({ method: 'GET', url: '/v1/rates', headers: client.headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['ratelimit-limit']).toBe('10');
    expect(res.headers['ratelimit-remaining']).toBe('6');
    expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThan(0);
  });

  it('does not count a 304 or a refused request', async () => {
    const client = await paidClient(t, { limit: 10, processed: 0 });
    const first = await t.app.inject({ method: 'GET', url: '/v1/rates', headers: client.headers });
    const etag = first.headers.etag as string;
    const notModified = await t.app.inject({
      method: 'GET',
      url: '/v1/rates',
      headers: { ...client.headers, 'if-none-match': etag },
    });
    expect(notModified.statusCode).toBe(304);
    const refused = await t.app.inject({
      method: 'GET',
      url: '/v1/rates?market=street',
      headers: client.headers,
    });
    expect(refused.statusCode).toBe(400);
    const second = await t.app.inject({
      method: 'GET',
      url: '/v1/rates?market=bank',
      headers: client.headers,
    });
    expect(second.headers['ratelimit-remaining']).toBe('8');
  });

  it('answers a free 304 to history, candles and a past day held by the client, with their validators', async () => {
    const client = await paidClient(t, { limit: 10, processed: 0 });
    const get = (url: string, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'GET', url, headers: { ...client.headers, ...headers } });
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const urls = [
      '/v1/rates/history?market=bank&base=naira&asset=dollar',
      '/v1/rates/ohlc?market=bank&base=naira&asset=dollar&interval=day',
      `/v1/rates?date=${yesterday}`,
    ];
    for (const url of urls) {
      const first = await get(url);
      expect({ url, status: first.statusCode }).toEqual({ url, status: 200 });
      const held = await get(url, { 'if-none-match': first.headers.etag as string });
      expect({ url, status: held.statusCode }).toEqual({ url, status: 304 });
      expect(held.headers.etag).toBe(first.headers.etag);
      expect(held.headers['cache-control']).toBe('private, max-age=0, must-revalidate');
    }
    // Three answers counted, the three 304s not.
    expect((await get('/v1/usage')).json().data.used).toBe(3);
  });

  it('lets exactly the remaining requests through when 200 arrive at once, and logs all 200', async () => {
    const client = await paidClient(t, { limit: 1000, processed: 950 });
    const responses = await Promise.all(
      Array.from({ length: 200 }, () =>
        t.app.inject({ method: 'GET', url: '/v1/rates', headers: client.headers }),
      ),
    );
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(50);
    expect(statuses.filter((s) => s === 429)).toHaveLength(150);
    const refused = responses.find((r) => r.statusCode === 429)!;
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['ratelimit-remaining']).toBe('0');
    expect(refused.json().message).toContain('Monthly request limit reached');

    await eventually(async () => expect(await logCount(t, client.appId)).toBe(200));
    await eventually(async () =>
      expect((await subscriptionRow(t, client.subscriptionId!)).processedRequests).toBe(1000),
    );
    const view = await t.runtime.services.subscriptions.current(client.appId);
    expect(view).toMatchObject({ status: 'exhausted', processedRequest: 1000, limit: 1000 });
  });

  it('counts each plan to its own limit when the requests of several apps arrive together', async () => {
    // With Redis the takes of one moment travel in one script call; each must still meet its own plan's count.
    const nearlySpent = await paidClient(t, { limit: 20, processed: 10 });
    const fresh = await paidClient(t, { limit: 1000, processed: 0 });
    // A first request each sets up both counters, so the takes below share calls instead of each seeding its own.
    for (const client of [nearlySpent, fresh])
      await t.app.inject({ method: 'GET', url: '/v1/rates', headers: client.headers });
    const responses = await Promise.all(
      Array.from({ length: 80 }, (_, i) =>
        t.app.inject({ method: 'GET', url: '/v1/rates', headers: (i % 2 ? fresh : nearlySpent).headers }),
      ),
    );
    const served = (client: PaidClient) =>
      responses.filter((r, i) => (i % 2 ? fresh : nearlySpent) === client && r.statusCode === 200).length;
    expect(served(nearlySpent)).toBe(9);
    expect(served(fresh)).toBe(40);
    expect(responses.filter((r) => r.statusCode === 429)).toHaveLength(31);
    await eventually(async () => {
      expect((await subscriptionRow(t, nearlySpent.subscriptionId!)).processedRequests).toBe(20);
      expect((await subscriptionRow(t, fresh.subscriptionId!)).processedRequests).toBe(41);
    });
    // Redis counted them, not the PostgreSQL fallback, which would give the same answers.
    if (t.runtime.config.redisUrl)
      for (const [client, count] of [
        [nearlySpent, '20'],
        [fresh, '41'],
      ] as const)
        expect(
          await redisValues(
            t.runtime.config.redisUrl,
            `${t.runtime.keyPrefix}:quota:${client.subscriptionId}:*`,
          ),
        ).toEqual([count]);
  });

  it('starts a new count when a new month of the term begins', async () => {
    const startsAt = new Date(Date.now() - 45 * 86_400_000);
    const client = await paidClient(t, {
      limit: 5,
      processed: 5,
      startsAt,
      lastIncrement: new Date(startsAt.getTime() + 86_400_000),
    });
    const res = await t.app.inject({ method: 'GET', url: '/v1/rates', headers: client.headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['ratelimit-remaining']).toBe('4');
  });

  it('stops a flood from one key with 429 before the monthly limit, a premium key too', async () => {
    const flood = await createTestApp({ ...FAST_FLUSH, API_BURST_PER_SECOND: '5' });
    try {
      const planned = await paidClient(flood, { limit: 1000 });
      const premium = await paidClient(flood, null, { premium: true });
      for (const client of [planned, premium]) {
        const statuses = (
          await Promise.all(
            Array.from({ length: 20 }, () =>
              flood.app.inject({ method: 'GET', url: '/v1/currencies', headers: client.headers }),
            ),
          )
        ).map((r) => r.statusCode);
        expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
        expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(0);
        expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(10);
      }
      // A premium key's flood is counted in Redis (shared by every process), not by the in-process fallback. Read
      // without timing: its burst counter is set at the limit for minutes beforehand, so every request of the flood
      // is refused and counted on top (the in-process guard would let 5 through), and the counter is still there.
      const redisUrl = flood.runtime.config.redisUrl;
      if (redisUrl) {
        const another = await paidClient(flood, null, { premium: true });
        const burstKey = `${flood.runtime.keyPrefix}:burst:${hashPrivateKey(another.privateKey)}`;
        const redis = new IORedis(redisUrl);
        try {
          await redis.set(burstKey, '5', 'PX', 10 * 60_000);
        } finally {
          redis.disconnect();
        }
        const statuses = (
          await Promise.all(
            Array.from({ length: 20 }, () =>
              flood.app.inject({ method: 'GET', url: '/v1/currencies', headers: another.headers }),
            ),
          )
        ).map((r) => r.statusCode);
        expect(statuses).toEqual(Array(20).fill(429));
        expect(await redisValues(redisUrl, burstKey)).toEqual(['25']);
      }
    } finally {
      await flood.close();
    }
  });
});

describe('GET /v1/rates', () => {
  it('filters by market, base and asset and carries ETag and Last-Modified', async () => {
    const client = await paidClient(t);
    const res = await t.app.inject({
      method: 'GET',
      url: '/v1/rates?market=bank&base=naira&asset=dollar',
      headers: client.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([
      expect.objectContaining({ market: 'bank', base: 'naira', asset: 'dollar', buy: 1450, sell: 1470 }),
    ]);
    expect(res.headers.etag).toMatch(/^".+"$/);
    expect(new Date(res.headers['last-modified'] as string).getTime()).not.toBeNaN();
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });

  it('changes its ETag when a rate changes', async () => {
    const client = await paidClient(t);
    const before = (await t.app.inject({ method: 'GET', url: '/v1/rates', headers: client.headers })).headers
      .etag;
    await t.createRate({ market: 'bank', asset: 'british_pounds', base: 'cedis', buy: 15, sell: 16 });
    const after = await t.app.inject({
      method: 'GET',
      url: '/v1/rates',
      headers: { ...client.headers, 'if-none-match': before as string },
    });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(before);
  });

  it('serves a counted answer with CORS and nosniff and none of the page headers of the site', async () => {
    const client = await paidClient(t);
    for (const url of ['/v1/rates', '/v1/rates?market=bank', '/v1/latest.json']) {
      const res = await t.app.inject({ method: 'GET', url, headers: client.headers });
      expect([url, res.statusCode]).toEqual([url, 200]);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(String(res.headers['access-control-expose-headers'])).toContain('RateLimit-Policy');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toBeUndefined();
      expect(res.headers['x-frame-options']).toBeUndefined();
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
  });

  it('answers a CORS preflight without a key', async () => {
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: '/v1/rates',
      headers: {
        origin: 'https://example.com',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });
});

describe('GET /v1/rates/history, /v1/convert, /v1/currencies', () => {
  it('gives one value per day, the last of that day', async () => {
    const client = await paidClient(t);
    const today = new Date().toISOString().slice(0, 10);
    const res = await t.app.inject({
      method: 'GET',
      url: `/v1/rates/history?market=bank&base=naira&asset=dollar&from=${today}&to=${today}`,
      headers: client.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      from: today,
      to: today,
      points: [{ day: today, buy: 1450, sell: 1470 }],
    });
  });

  it('converts an asset to a base and back on the chosen side', async () => {
    const client = await paidClient(t);
    const toNaira = await t.app.inject({
      method: 'GET',
      url: '/v1/convert?amount=10&from=dollar&to=naira&market=bank&side=sell',
      headers: client.headers,
    });
    expect(toNaira.json().data).toMatchObject({ rate: 1470, result: 14700, market: 'bank', side: 'sell' });
    const toDollar = await t.app.inject({
      method: 'GET',
      url: '/v1/convert?amount=1490&from=naira&to=dollar&side=buy',
      headers: client.headers,
    });
    expect(toDollar.json().data).toMatchObject({
      market: 'black_market_cash',
      side: 'buy',
      rate: 1490,
      result: 1,
    });
  });

  it('pays the sell price by default for a base currency into an asset', async () => {
    const client = await paidClient(t);
    const res = await t.app.inject({
      method: 'GET',
      url: '/v1/convert?amount=150000&from=NGN&to=USD',
      headers: client.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      from: 'naira',
      to: 'dollar',
      market: 'black_market_cash',
      side: 'sell',
      rate: 1520,
      result: Math.round((150000 / 1520) * 10_000) / 10_000,
    });
    expect(res.json().message).toBe('Converted at the Cash sell price of 1520 NGN per USD.');
  });

  it('gets the buy price by default for an asset into a base currency', async () => {
    const client = await paidClient(t);
    const res = await t.app.inject({
      method: 'GET',
      url: '/v1/convert?amount=100&from=USD&to=NGN',
      headers: client.headers,
    });
    expect(res.json().data).toMatchObject({ side: 'buy', rate: 1490, result: 149000 });
  });

  it('lists markets, bases and assets with their symbols', async () => {
    const client = await paidClient(t);
    const res = await t.app.inject({ method: 'GET', url: '/v1/currencies', headers: client.headers });
    expect(res.json().data.bases).toContainEqual({
      id: 'cedis',
      name: 'Ghanaian Cedi',
      code: 'GHS',
      symbol: 'GH₵',
    });
    expect(res.json().data.assets).toContainEqual(
      expect.objectContaining({ id: 'british_pounds', code: 'GBP', symbol: '£' }),
    );
  });
});

describe('bad parameters', () => {
  const cases = [
    ['/v1/rates?market=street', 'market'],
    ['/v1/rates?base=cfa', 'base'],
    ['/v1/rates?asset=yen', 'asset'],
    ['/v1/rates/history?market=bank&base=naira', 'asset'],
    ['/v1/rates/history?market=bank&base=naira&asset=dollar&from=2026-02-30', 'from'],
    ['/v1/rates/history?market=bank&base=naira&asset=dollar&from=yesterday', 'from'],
    ['/v1/rates/history?market=bank&base=naira&asset=dollar&from=2026-05-02&to=2026-05-01', 'from'],
    ['/v1/rates/history?market=bank&base=naira&asset=dollar&from=2024-01-01&to=2026-01-01', 'span'],
    ['/v1/convert?amount=-1&from=dollar&to=naira', 'amount'],
    ['/v1/convert?amount=abc&from=dollar&to=naira', 'amount'],
    ['/v1/convert?amount=1e20&from=dollar&to=naira', 'amount'],
    ['/v1/convert?amount=5&from=dollar&to=euro', 'from'],
    ['/v1/convert?amount=5&from=dollar&to=naira&side=middle', 'side'],
    ['/v1/convert?from=dollar&to=naira', 'amount'],
  ] as const;

  it.each(cases)('%s is a 400 naming the parameter, never a 500', async (url, parameter) => {
    const client = await paidClient(t);
    const res = await t.app.inject({ method: 'GET', url, headers: client.headers });
    expect(res.statusCode).toBe(400);
    const message = res.json().message as string;
    expect(parameter === 'span' ? message.includes('from..to') : message.includes(parameter)).toBe(true);
  });

  it('logs refused requests of a known key but does not count them', async () => {
    const client = await paidClient(t, { limit: 10, processed: 0 });
    await t.app.inject({ method: 'GET', url: '/v1/rates?market=street', headers: client.headers });
    await eventually(async () => expect(await logCount(t, client.appId)).toBe(1));
    const [entry] = await t.runtime.database.db
      .select()
      .from(requestLogs)
      .where(eq(requestLogs.appId, client.appId));
    expect(entry).toMatchObject({ status: 400, originalUrl: '/v1/rates?market=street' });
    expect((await subscriptionRow(t, client.subscriptionId!)).processedRequests).toBe(0);
  });

  it('folds only identical refused calls: two different calls are two rows', async () => {
    const client = await paidClient(t, { limit: 10, processed: 0 });
    const urls = [
      '/v1/rates?market=street',
      '/v1/rates?market=street',
      '/v1/convert?amount=-1&from=USD&to=NGN',
    ];
    for (const url of urls) await t.app.inject({ method: 'GET', url, headers: client.headers });
    await eventually(async () => expect(await logCount(t, client.appId)).toBe(3));
    const rows = await t.runtime.database.db
      .select({ originalUrl: requestLogs.originalUrl, status: requestLogs.status, count: requestLogs.count })
      .from(requestLogs)
      .where(eq(requestLogs.appId, client.appId));
    const perUrl = (url: string) =>
      rows.filter((r) => r.originalUrl === url).reduce((total, r) => total + r.count, 0);
    expect(perUrl('/v1/rates?market=street')).toBe(2);
    expect(perUrl('/v1/convert?amount=-1&from=USD&to=NGN')).toBe(1);
  });
  // The developer's request-log page shows originalUrl; a key a client also put in the query is not kept.
  it('stores no credential a client put in the query string', async () => {
    const client = await paidClient(t, { limit: 10, processed: 0 });
    const res = await t.app.inject({
      method: 'GET',
      url: `/v1/rates?market=bank&api_key=${client.privateKey}&token=abc&signature=def`,
      headers: client.headers,
    });
    // Not parameters /v1/rates takes: ignored, and the served call is logged.
    expect(res.statusCode).toBe(200);
    await eventually(async () => expect(await logCount(t, client.appId)).toBe(1));
    const [entry] = await t.runtime.database.db
      .select()
      .from(requestLogs)
      .where(eq(requestLogs.appId, client.appId));
    expect(entry!.originalUrl).toBe(
      '/v1/rates?market=bank&api_key=[redacted]&token=[redacted]&signature=[redacted]',
    );
  });
});

/**
 * Serves 30 calls, 15 by each process, then checks that /v1/usage on each says 30 within a second, as the last
 * answer's RateLimit headers do.
 */
async function expectUsageAgreesOnBoth(first: FastifyInstance, second: FastifyInstance, client: PaidClient) {
  let remaining: string | undefined;
  for (let i = 0; i < 30; i++) {
    const served = await (i < 15 ? first : second).inject({
      method: 'GET',
      url: '/v1/rates',
      headers: client.headers,
    });
    expect(served.statusCode).toBe(200);
    remaining = String(served.headers['ratelimit-remaining']);
  }
  expect(remaining).toBe('970');
  for (const app of [first, second])
    await eventually(async () => {
      const usage = await app.inject({ method: 'GET', url: '/v1/usage', headers: client.headers });
      expect(usage.json().data).toMatchObject({ used: 30, remaining: 970 });
      expect(usage.headers['ratelimit-remaining']).toBe(remaining);
    }, 1000);
}

describeWithServers('two API processes sharing PostgreSQL and Redis', () => {
  let sibling: Awaited<ReturnType<typeof siblingApp>>;
  beforeAll(async () => {
    sibling = await siblingApp(t);
  });
  afterAll(() => sibling.close());

  it('answers /v1/usage with the count both served, on each, within a second', async () => {
    await expectUsageAgreesOnBoth(t.app, sibling.app, await paidClient(t, { limit: 1000, processed: 0 }));
  });

  it('lets exactly the remaining requests through across both', async () => {
    const client = await paidClient(t, { limit: 500, processed: 450 });
    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        (i % 2 ? sibling.app : t.app).inject({ method: 'GET', url: '/v1/rates', headers: client.headers }),
      ),
    );
    expect(responses.filter((r) => r.statusCode === 200)).toHaveLength(50);
    expect(responses.filter((r) => r.statusCode === 429)).toHaveLength(150);
    await eventually(async () => expect(await logCount(t, client.appId)).toBe(200));
    await eventually(async () =>
      expect((await subscriptionRow(t, client.subscriptionId!)).processedRequests).toBe(500),
    );
  });

  it('stops a rotated key in the other process within a second', async () => {
    const client = await paidClient(t);
    expect(
      (await sibling.app.inject({ method: 'GET', url: '/v1/rates', headers: client.headers })).statusCode,
    ).toBe(200);
    await t.runtime.services.apps.generateKey(client.appId);
    await eventually(
      async () =>
        expect(
          (await sibling.app.inject({ method: 'GET', url: '/v1/rates', headers: client.headers })).statusCode,
        ).toBe(401),
      1000,
    );
  });

  it("stops a disabled account's keys in the other process within a second", async () => {
    const client = await paidClient(t);
    expect(
      (await sibling.app.inject({ method: 'GET', url: '/v1/rates', headers: client.headers })).statusCode,
    ).toBe(200);
    await t.runtime.services.adminUsers.setStatus(client.accountId, 'disabled');
    await eventually(
      async () =>
        expect(
          (await sibling.app.inject({ method: 'GET', url: '/v1/rates', headers: client.headers })).statusCode,
        ).toBe(401),
      1000,
    );
  });
});

describeWithPostgres('two API processes sharing PostgreSQL without Redis', () => {
  it('lets exactly the remaining requests through across both', async () => {
    const first = await createTestApp({ ...FAST_FLUSH, REDIS_URL: '' });
    const second = await siblingApp(first);
    try {
      const client = await paidClient(first, { limit: 100, processed: 50 });
      const responses = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          (i % 2 ? second.app : first.app).inject({
            method: 'GET',
            url: '/v1/rates',
            headers: client.headers,
          }),
        ),
      );
      expect(responses.filter((r) => r.statusCode === 200)).toHaveLength(50);
      expect(responses.filter((r) => r.statusCode === 429)).toHaveLength(150);
      await eventually(async () => expect(await logCount(first, client.appId)).toBe(200));
      expect((await subscriptionRow(first, client.subscriptionId!)).processedRequests).toBe(100);
      await expectUsageAgreesOnBoth(
        first.app,
        second.app,
        await paidClient(first, { limit: 1000, processed: 0 }),
      );
    } finally {
      await second.close();
      await first.close();
    }
  });
});

// A customer of Open Exchange Rates or Fixer changes the base URL and the key: the compatible calls answer in the
// peer's shapes and direction (units of each symbol per one base), refuse pairs nobody published in the peer's
// error shape, and are metered, logged, cached and gated exactly like /v1/rates.
import { eq } from 'drizzle-orm';
import { rates, requestLogs, subscriptions } from '../src/db/schema';
import { paidClient, type PaidClient } from './support/paid-api';
import { createTestApp, type TestApp } from './support/test-app';

let t: TestApp;
let client: PaidClient;
const DAY_MS = 86_400_000;
const todayStart = Math.floor(Date.now() / DAY_MS) * DAY_MS;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

beforeAll(async () => {
  t = await createTestApp({ REQUEST_LOG_FLUSH_MS: '50' });
  client = await paidClient(t, { limit: 1000, processed: 0 });
  const entry = (
    market: 'bank' | 'black_market_cash',
    base: 'naira' | 'kenyan-shilling',
    asset: 'dollar' | 'euro',
    buy: number,
    at: number,
  ) => ({
    market,
    base,
    asset,
    buy,
    sell: buy + 10,
    createdAt: new Date(at),
    updatedAt: new Date(at),
  });
  await t.runtime.database.db
    .insert(rates)
    .values([
      entry('bank', 'naira', 'dollar', 1400, todayStart - 3 * DAY_MS + 3_600_000),
      entry('bank', 'naira', 'dollar', 1450, todayStart - 2 * DAY_MS + 3_600_000),
      entry('bank', 'naira', 'dollar', 1500, todayStart + 1000),
      entry('bank', 'kenyan-shilling', 'dollar', 129, todayStart + 1000),
      entry('bank', 'naira', 'euro', 1600, todayStart + 2000),
      entry('black_market_cash', 'naira', 'dollar', 1600, todayStart + 3000),
    ]);
});
afterAll(() => t.close());

const get = (url: string, headers: Record<string, string> = client.headers) =>
  t.app.inject({ method: 'GET', url, headers });
const usedNow = async () => (await get('/v1/usage')).json().data.used;

describe('Open Exchange Rates', () => {
  test('latest.json answers units per one base: our mid, or 1 / our mid', async () => {
    const res = await get(`/v1/latest.json?app_id=${client.privateKey}&base=USD&symbols=NGN,KES`, {});
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ base: 'USD', rates: { NGN: 1505, KES: 134 } });
    expect(typeof body.disclaimer).toBe('string');
    expect(body.timestamp).toBe(Math.floor((todayStart + 1000) / 1000));
    const inverse = (
      await get(`/v1/latest.json?app_id=${client.privateKey}&base=NGN&symbols=USD`, {})
    ).json();
    expect(inverse.rates.USD).toBeCloseTo(1 / 1505, 15);
    const cash = (await get('/v1/latest.json?base=USD&symbols=NGN&market=black_market_cash')).json();
    expect(cash.rates).toEqual({ NGN: 1605 });
    const all = (await get('/v1/latest.json')).json();
    expect(all.rates).toEqual({ USD: 1, NGN: 1505, KES: 134 });
  });

  test('a pair nobody published is an error in its shape, and costs nothing', async () => {
    const before = await usedNow();
    const cross = await get('/v1/latest.json?base=EUR&symbols=USD');
    expect(cross.statusCode).toBe(400);
    expect(cross.json()).toMatchObject({ error: true, status: 400, message: 'invalid_currency' });
    const base = await get('/v1/latest.json?base=JPY');
    expect(base.json()).toMatchObject({ error: true, status: 400, message: 'invalid_base' });
    expect(await usedNow()).toBe(before);
  });

  test('a missing or wrong app_id is its 401', async () => {
    const missing = await get('/v1/latest.json', {});
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toMatchObject({ error: true, status: 401, message: 'missing_app_id' });
    const wrong = await get('/v1/latest.json?app_id=sk_nothing_like_a_real_key_000', {});
    expect(wrong.json().message).toBe('invalid_app_id');
    // OXR's header form: Authorization: Token <app id>.
    const token = await get('/v1/latest.json?symbols=NGN', { authorization: `Token ${client.privateKey}` });
    expect(token.statusCode).toBe(200);
  });

  test('historical answers the table at the end of that day', async () => {
    const day = dayOf(todayStart - 2 * DAY_MS);
    const body = (await get(`/v1/historical/${day}.json?base=USD&symbols=NGN`)).json();
    expect(body).toMatchObject({ base: 'USD', rates: { NGN: 1455 } });
    const future = await get(`/v1/historical/${dayOf(todayStart + 2 * DAY_MS)}.json`);
    expect(future.statusCode).toBe(400);
    expect(future.json().error).toBe(true);
  });

  test('convert uses the same conversion as /v1/convert', async () => {
    const ours = (await get('/v1/convert?amount=250&from=USD&to=NGN&market=bank')).json().data;
    const body = (await get('/v1/convert/250/USD/NGN')).json();
    expect(body.response).toBe(ours.result);
    expect(body.meta.rate).toBe(ours.rate);
    expect(body.request).toEqual({ query: '/convert/250/USD/NGN', amount: 250, from: 'USD', to: 'NGN' });
    const back = (await get('/v1/convert/3000/NGN/USD')).json();
    const oursBack = (await get('/v1/convert?amount=3000&from=NGN&to=USD&market=bank')).json().data;
    expect(back.response).toBe(oursBack.result);
    const cross = await get('/v1/convert/10/EUR/USD');
    expect(cross.statusCode).toBe(400);
    expect(cross.json().error).toBe(true);
  });

  test('usage.json is free and says the plan and count', async () => {
    const before = await usedNow();
    const body = (await get('/v1/usage.json')).json();
    expect(body.status).toBe(200);
    expect(body.data).toMatchObject({ app_id: client.appId, plan: { name: 'Test plan' } });
    expect(body.data.usage.requests_quota).toBe(1000);
    expect(await usedNow()).toBe(before);
  });
});

describe('Fixer', () => {
  test('latest answers success, base (default EUR), date and rates', async () => {
    const res = await get(`/v1/latest?access_key=${client.privateKey}`, {});
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, base: 'EUR', rates: { EUR: 1, NGN: 1605 } });
    const inverse = (await get('/v1/latest?base=NGN&symbols=USD, EUR')).json();
    expect(inverse.rates.USD).toBeCloseTo(1 / 1505, 15);
    expect(inverse.rates.EUR).toBeCloseTo(1 / 1605, 15);
  });

  test('errors are Fixer-shaped', async () => {
    const cross = await get('/v1/latest?base=USD&symbols=EUR');
    expect(cross.statusCode).toBe(400);
    expect(cross.json()).toMatchObject({
      success: false,
      error: { code: 202, type: 'invalid_currency_codes' },
    });
    const key = await get('/v1/latest?access_key=sk_nothing_like_a_real_key_000', {});
    expect(key.statusCode).toBe(401);
    expect(key.json()).toMatchObject({ success: false, error: { code: 101, type: 'invalid_access_key' } });
  });

  test('a past day, a timeseries and a fluctuation', async () => {
    const day = dayOf(todayStart - 2 * DAY_MS);
    expect((await get(`/v1/${day}?base=USD&symbols=NGN`)).json()).toMatchObject({
      success: true,
      historical: true,
      date: day,
      rates: { NGN: 1455 },
    });
    const range = `start_date=${dayOf(todayStart - 3 * DAY_MS)}&end_date=${dayOf(todayStart)}`;
    const series = (await get(`/v1/timeseries?${range}&base=USD&symbols=NGN`)).json();
    expect(series).toMatchObject({ success: true, timeseries: true, base: 'USD' });
    expect(series.rates).toEqual({
      [dayOf(todayStart - 3 * DAY_MS)]: { NGN: 1405 },
      [dayOf(todayStart - 2 * DAY_MS)]: { NGN: 1455 },
      [dayOf(todayStart)]: { NGN: 1505 },
    });
    const moves = (await get(`/v1/fluctuation?${range}&base=USD&symbols=NGN`)).json();
    expect(moves.rates.NGN).toEqual({ start_rate: 1405, end_rate: 1505, change: 100, change_pct: 7.1174 });
    const tooLong = await get(`/v1/timeseries?start_date=2020-01-01&end_date=${dayOf(todayStart)}`);
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().success).toBe(false);
  });

  test('symbols lists the currencies carried', async () => {
    const body = (await get('/v1/symbols')).json();
    expect(body.success).toBe(true);
    expect(Object.keys(body.symbols).sort()).toEqual([
      'CAD',
      'EUR',
      'GBP',
      'GHS',
      'KES',
      'NGN',
      'USD',
      'ZAR',
    ]);
  });

  test('an unknown path under /v1 is still a 404, not a date', async () => {
    expect((await get('/v1/nope')).statusCode).toBe(404);
  });
});

describe('the same paid path as /v1/rates', () => {
  test('each answer counts once, carries the RateLimit fields and an ETag that gives a free 304', async () => {
    const before = await usedNow();
    const first = await get('/v1/latest?base=USD&symbols=NGN');
    expect(first.headers['ratelimit-policy']).toMatch(/^"month";q=1000;w=\d+, "burst";q=\d+;w=1$/);
    expect(await usedNow()).toBe(before + 1);
    const again = await get('/v1/latest?base=USD&symbols=NGN', {
      ...client.headers,
      'if-none-match': String(first.headers.etag),
    });
    expect(again.statusCode).toBe(304);
    expect(await usedNow()).toBe(before + 1);
  });

  test('the key in the query is redacted from the request log', async () => {
    await get(`/v1/latest.json?app_id=${client.privateKey}&symbols=NGN`, {});
    await get(`/v1/latest?access_key=${client.privateKey}&symbols=NGN`, {});
    const wanted = [
      '/v1/latest.json?app_id=[redacted]&symbols=NGN',
      '/v1/latest?access_key=[redacted]&symbols=NGN',
    ];
    let logged: string[] = [];
    // The request log is written in batches (every 50 ms here): read until both rows are in.
    while (!wanted.every((url) => logged.includes(url))) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      logged = (
        await t.runtime.database.db
          .select({ originalUrl: requestLogs.originalUrl })
          .from(requestLogs)
          .where(eq(requestLogs.appId, client.appId))
      ).map((row) => row.originalUrl);
    }
    expect(logged.filter((url) => url.includes(client.privateKey))).toEqual([]);
  });

  test("a plan that does not open a market refuses it here too, in the peer's shape", async () => {
    const limited = await paidClient(t, { limit: 100, processed: 0 });
    await t.runtime.database.db
      .update(subscriptions)
      .set({
        entitlements: {
          endpoints: ['latest'],
          historyDays: 0,
          markets: ['black_market_cash'],
          burstPerSecond: 5,
        },
      })
      .where(eq(subscriptions.appId, limited.appId));
    const res = await get('/v1/latest?base=USD&symbols=NGN', limited.headers);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ success: false, error: { code: 105 } });
    const cash = await get('/v1/latest?base=USD&symbols=NGN&market=black_market_cash', limited.headers);
    expect(cash.statusCode).toBe(200);
  });
});

// No silent wrong answer for a customer switching from another FX API: a parameter that would choose other figures
// works or is a free 400 naming ours; harmless ones are ignored. And the RateLimit fields describe the window hit.
import { eq } from 'drizzle-orm';
import { rates, subscriptions } from '../src/db/schema';
import { paidClient, type PaidClient } from './support/paid-api';
import { createTestApp, type TestApp } from './support/test-app';

let t: TestApp;
let client: PaidClient;

beforeAll(async () => {
  t = await createTestApp({ REQUEST_LOG_FLUSH_MS: '50' });
  client = await paidClient(t, { limit: 1000, processed: 0 });
  const at = new Date(Date.now() - 60_000);
  await t.runtime.database.db.insert(rates).values(
    (['dollar', 'british_pounds', 'euro'] as const).map((asset, i) => ({
      market: 'bank' as const,
      base: 'naira' as const,
      asset,
      buy: 1400 + i * 100,
      sell: 1410 + i * 100,
      createdAt: at,
      updatedAt: at,
    })),
  );
});
afterAll(() => t.close());

const get = (url: string, headers: Record<string, string> = client.headers) =>
  t.app.inject({ method: 'GET', url, headers });
const usedNow = async () => (await get('/v1/usage')).json().data.used;

test('start_date and end_date on the history are a 400 naming from and to, and cost nothing', async () => {
  const before = await usedNow();
  const start = await get(
    '/v1/rates/history?market=bank&base=naira&asset=dollar&start_date=2026-11-01&end_date=2026-11-03',
  );
  expect(start.statusCode).toBe(400);
  expect(start.json().message).toBe(
    "The start_date parameter is not AfroFX's: this call takes the first day of a range (YYYY-MM-DD) as from.",
  );
  const end = await get('/v1/rates/history?market=bank&base=naira&asset=dollar&end_date=2026-11-03');
  expect(end.json().message).toContain('as to.');
  expect(await usedNow()).toBe(before);
});

test('base_currency and currencies on the rates are a 400 naming base and symbols', async () => {
  const base = await get('/v1/rates?base_currency=NGN');
  expect(base.statusCode).toBe(400);
  expect(base.json().message).toContain('as base.');
  const currencies = await get('/v1/rates?currencies=USD');
  expect(currencies.statusCode).toBe(400);
  expect(currencies.json().message).toContain('as symbols.');
  // Frankfurter's from/to mean base and symbols; /v1/rates has no from.
  const frankfurter = await get('/v1/rates?from=USD&to=NGN');
  expect(frankfurter.statusCode).toBe(400);
  expect(frankfurter.json().message).toContain('as base.');
});

test('a parameter no call of ours takes names the call that does', async () => {
  const res = await get('/v1/rates/premium?base=naira&asset=dollar&start_date=2026-11-01');
  expect(res.statusCode).toBe(400);
  expect(res.json().message).toContain('use from on GET /v1/rates/history');
});

test('symbols with spaces works, and cache-busters are ignored', async () => {
  const res = await get('/v1/rates?market=bank&base=naira&symbols=USD,%20GBP&_=1732000000&cb=7');
  expect(res.statusCode).toBe(200);
  expect(
    res
      .json()
      .data.map((r: { asset: string }) => r.asset)
      .sort(),
  ).toEqual(['british_pounds', 'dollar']);
});

test('app_id and access_key carry the key on every paid call', async () => {
  const oxr = await get(`/v1/rates?market=bank&base=naira&asset=dollar&app_id=${client.privateKey}`, {});
  expect(oxr.statusCode).toBe(200);
  const fixer = await get(`/v1/currencies?access_key=${client.privateKey}`, {});
  expect(fixer.statusCode).toBe(200);
});

test("RateLimit-Policy names the month's and the second's windows", async () => {
  const res = await get('/v1/rates?market=bank');
  expect(res.headers['ratelimit-policy']).toMatch(/^"month";q=1000;w=\d+, "burst";q=\d+;w=1$/);
  expect(res.headers.ratelimit).toBe(
    `"month";r=${res.headers['ratelimit-remaining']};t=${res.headers['ratelimit-reset']}`,
  );
});

test("a burst 429's RateLimit fields describe the per-second window, with Retry-After in seconds", async () => {
  const burst = await paidClient(t, { limit: 1000, processed: 0 });
  await t.runtime.database.db
    .update(subscriptions)
    .set({ entitlements: { endpoints: ['latest'], historyDays: 0, markets: ['bank'], burstPerSecond: 2 } })
    .where(eq(subscriptions.appId, burst.appId));
  // Twenty calls at once may straddle the turn of one second, no more: some are refused.
  const answers = await Promise.all(
    Array.from({ length: 20 }, () => get('/v1/rates?market=bank', burst.headers)),
  );
  const refused = answers.find((res) => res.statusCode === 429)!;
  expect(refused.headers).toMatchObject({
    'ratelimit-policy': expect.stringMatching(/^"month";q=1000;w=\d+, "burst";q=2;w=1$/),
    ratelimit: '"burst";r=0;t=1',
    'ratelimit-limit': '2',
    'ratelimit-remaining': '0',
    'ratelimit-reset': '1',
    'retry-after': '1',
  });
});

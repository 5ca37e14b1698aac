// What a customer switching from another FX API expects of the paid API: ISO 4217 codes,
// several assets at once, a past day's table, a free usage call, extra parameters ignored, Retry-After on every 429.
import { rates } from '../src/db/schema';
import { MISSES_PER_ADDRESS } from '../src/modules/paid-api/api-clients';
import { paidClient, type PaidClient } from './support/paid-api';
import { createTestApp, type TestApp } from './support/test-app';

let t: TestApp;
let client: PaidClient;
const DAY_MS = 86_400_000;
const todayStart = Math.floor(Date.now() / DAY_MS) * DAY_MS;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

beforeAll(async () => {
  t = await createTestApp({ REQUEST_LOG_FLUSH_MS: '50' });
  client = await paidClient(t, { limit: 100, processed: 0 });
  const entry = (asset: 'dollar' | 'british_pounds' | 'euro', buy: number, at: number) => ({
    market: 'bank' as const,
    base: 'naira' as const,
    asset,
    buy,
    sell: buy + 10,
    createdAt: new Date(at),
    updatedAt: new Date(at),
  });
  await t.runtime.database.db
    .insert(rates)
    .values([
      entry('dollar', 1400, todayStart - 3 * DAY_MS + 3_600_000),
      entry('dollar', 1450, todayStart - 2 * DAY_MS + 3_600_000),
      entry('dollar', 1500, todayStart + 1000),
      entry('british_pounds', 1900, todayStart - 2 * DAY_MS + 7_200_000),
      entry('euro', 1600, todayStart + 2000),
    ]);
});
afterAll(() => t.close());

const get = (url: string, headers: Record<string, string> = client.headers) =>
  t.app.inject({ method: 'GET', url, headers });
// The count the API holds now (the database row gets it at the next flush, which may fall between two reads).
const counted = async () => (await get('/v1/usage')).json().data.used;

test('currencies carry ISO 4217 codes and names, and an unambiguous symbol', async () => {
  const { data } = (await get('/v1/currencies')).json();
  expect(data.assets.map((a: { code: string }) => a.code)).toEqual(['USD', 'EUR', 'GBP', 'CAD']);
  expect(data.bases.map((b: { code: string }) => b.code)).toEqual(['NGN', 'KES', 'ZAR', 'GHS']);
  expect(data.assets.find((a: { id: string }) => a.id === 'canadian_dollar')).toMatchObject({
    code: 'CAD',
    symbol: 'CA$',
    name: 'Canadian Dollar',
  });
  expect(data.bases.find((b: { id: string }) => b.id === 'cedis')).toMatchObject({
    code: 'GHS',
    name: 'Ghanaian Cedi',
    symbol: 'GH₵',
  });
});

test('base, asset and symbols take ISO codes; symbols picks several assets', async () => {
  const iso = (await get('/v1/rates?market=bank&base=NGN&asset=usd')).json().data;
  expect(iso.map((r: { asset: string; base: string }) => `${r.base}/${r.asset}`)).toEqual(['naira/dollar']);
  const several = (await get('/v1/rates?market=bank&base=naira&symbols=USD,GBP')).json().data;
  expect(several.map((r: { asset: string }) => r.asset).sort()).toEqual(['british_pounds', 'dollar']);
  const converted = (await get('/v1/convert?amount=2&from=USD&to=NGN&market=bank')).json().data;
  expect(converted).toMatchObject({ from: 'dollar', to: 'naira', rate: 1500, result: 3000 });
});

test('an unknown symbol is a 400 naming it, and costs nothing', async () => {
  const before = await counted();
  const res = await get('/v1/rates?symbols=USD,XYZ');
  expect(res.statusCode).toBe(400);
  expect(res.json().message).toContain('"XYZ"');
  expect(await counted()).toBe(before);
});

test('date answers the table as it stood at the end of that UTC day', async () => {
  const twoDaysAgo = (
    await get(`/v1/rates?market=bank&base=naira&date=${dayOf(todayStart - 2 * DAY_MS)}`)
  ).json();
  const byAsset = Object.fromEntries(twoDaysAgo.data.map((r: { asset: string }) => [r.asset, r]));
  expect(Object.keys(byAsset).sort()).toEqual(['british_pounds', 'dollar']);
  // That day's dollar, with its change against the day before's close (1405 → 1455).
  expect(byAsset.dollar).toMatchObject({ buy: 1450, mid: 1455, change: 50 });
  const before = (await get(`/v1/rates?base=naira&date=${dayOf(todayStart - 10 * DAY_MS)}`)).json();
  expect(before.data).toEqual([]);
  const future = await get(`/v1/rates?date=${dayOf(todayStart + 2 * DAY_MS)}`);
  expect(future.statusCode).toBe(400);
  const badDate = await get('/v1/rates?date=2026-13-40');
  expect(badDate.statusCode).toBe(400);
});

test('unknown query parameters are ignored on the paid calls', async () => {
  const res = await get('/v1/rates?market=bank&base=naira&asset=dollar&app_id=x&_=123');
  expect(res.statusCode).toBe(200);
  expect(res.json().data).toHaveLength(1);
  expect((await get('/v1/rates/premium?base=naira&asset=dollar&extra=1')).statusCode).toBe(200);
});

test('usage answers the count, limit, plan and reset, and is free', async () => {
  await get('/v1/currencies');
  const first = await get('/v1/usage');
  expect(first.statusCode).toBe(200);
  const usage = first.json().data;
  expect(usage).toMatchObject({ plan: 'Test plan', limit: 100 });
  expect(usage.used).toBe(
    Number(first.headers['ratelimit-limit']) - Number(first.headers['ratelimit-remaining']),
  );
  expect(usage.remaining).toBe(Number(first.headers['ratelimit-remaining']));
  expect(Date.parse(usage.resetsAt)).toBeGreaterThan(Date.now());
  const again = (await get('/v1/usage')).json().data;
  expect(again.used).toBe(usage.used);
});

test('the 429 for too many unknown keys carries Retry-After', async () => {
  const headers = { 'x-forwarded-for': '203.0.113.77' };
  let res;
  for (let i = 0; i <= MISSES_PER_ADDRESS; i++)
    res = await t.app.inject({
      method: 'GET',
      url: '/v1/rates',
      remoteAddress: '203.0.113.77',
      headers: { ...headers, authorization: `Bearer sk_${String(i).padStart(24, 'x')}` },
    });
  expect(res!.statusCode).toBe(429);
  expect(Number(res!.headers['retry-after'])).toBeGreaterThan(0);
});

test('HEAD is answered and counted like its GET, as the quick-start says', async () => {
  const head = await t.app.inject({
    method: 'HEAD',
    url: '/v1/rates/premium?base=naira&asset=dollar',
    headers: client.headers,
  });
  expect(head.statusCode).toBe(200);
  expect(head.body).toBe('');
  const after = await get('/v1/usage');
  expect(Number(after.headers['ratelimit-remaining'])).toBe(Number(head.headers['ratelimit-remaining']));
  const next = await t.app.inject({
    method: 'HEAD',
    url: '/v1/rates/premium?base=naira&asset=dollar',
    headers: client.headers,
  });
  expect(Number(next.headers['ratelimit-remaining'])).toBe(Number(head.headers['ratelimit-remaining']) - 1);
});

// GET /v1/rates/premium, worked out on seeded daily entries.
import { eq, sql } from 'drizzle-orm';
import { formatUtcDate, type Market, type Premium } from '@afrofx/shared';
import { rates, requestLogs } from '../src/db/schema';
import { paidClient, type PaidClient } from './support/paid-api';
import { createTestApp, eventually, type TestApp } from './support/test-app';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

let t: TestApp;
let client: PaidClient;
const todayStart = Date.parse(`${formatUtcDate(new Date())}T00:00:00Z`);
/** A moment `daysAgo` UTC days back, `hour` hours into that day; today's entries are made a second after midnight. */
const at = (daysAgo: number, hour = 12) =>
  new Date(daysAgo === 0 ? todayStart + 1000 : todayStart - daysAgo * DAY_MS + hour * HOUR_MS);
const day = (daysAgo: number) => formatUtcDate(new Date(todayStart - daysAgo * DAY_MS));

async function seed(
  market: Market,
  entries: Array<[daysAgo: number, buy: number, sell: number, hour?: number]>,
) {
  await t.runtime.database.db.insert(rates).values(
    entries.map(([daysAgo, buy, sell, hour]) => ({
      market,
      base: 'naira' as const,
      asset: 'dollar' as const,
      buy,
      sell,
      createdAt: at(daysAgo, hour),
      updatedAt: at(daysAgo, hour),
    })),
  );
}

async function premium(query = 'base=naira&asset=dollar') {
  return t.app.inject({ method: 'GET', url: `/v1/rates/premium?${query}`, headers: client.headers });
}

beforeAll(async () => {
  t = await createTestApp({ REQUEST_LOG_FLUSH_MS: '50' });
  client = await paidClient(t, { limit: 100, processed: 0 });
  // Bank stays at 1000 / 1020 (mid 1010). Cash: +10 % today, +5 % yesterday (its last entry of the day; the morning
  // one at +100 % does not count), +20 % three days ago, −10 % ten days ago; two days ago the bank has no entry, so
  // that day is left out; forty days ago is outside both windows.
  await seed('bank', [
    [40, 1000, 1020],
    [10, 1000, 1020],
    [3, 1000, 1020],
    [1, 1000, 1020],
    [0, 1000, 1020],
  ]);
  await seed('black_market_cash', [
    [40, 5000, 5100],
    [10, 900, 918],
    [3, 1200, 1224],
    [2, 3000, 3060],
    [1, 2000, 2040, 8],
    [1, 1050, 1071, 20],
    [0, 1100, 1122],
  ]);
});
afterAll(() => t.close());

describe('GET /v1/rates/premium', () => {
  it('answers the cash premium now and over 7 and 30 UTC days, from each day’s last entry', async () => {
    const res = await premium();
    expect(res.statusCode).toBe(200);
    const data = res.json().data as Premium;
    expect(data.base).toBe('naira');
    expect(data.asset).toBe('dollar');
    const cash = data.markets.find((m) => m.market === 'black_market_cash')!;
    expect(cash.now).toEqual({
      buy: 10,
      sell: 10,
      mid: 10,
      updatedAt: at(0).toISOString(),
      bankUpdatedAt: at(0).toISOString(),
    });
    // Days counted: today (+10), yesterday (+5), three days ago (+20): mean 35 / 3 = 11.6667.
    expect(cash.last7Days).toEqual({
      from: day(6),
      to: day(0),
      days: 3,
      average: { buy: 11.6667, sell: 11.6667, mid: 11.6667 },
      minimum: { buy: 5, sell: 5, mid: 5 },
      maximum: { buy: 20, sell: 20, mid: 20 },
    });
    // Plus ten days ago (−10): mean 25 / 4 = 6.25.
    expect(cash.last30Days).toEqual({
      from: day(29),
      to: day(0),
      days: 4,
      average: { buy: 6.25, sell: 6.25, mid: 6.25 },
      minimum: { buy: -10, sell: -10, mid: -10 },
      maximum: { buy: 20, sell: 20, mid: 20 },
    });
  });

  it('answers the transfer market with nothing to compare as null figures and zero days', async () => {
    const data = (await premium()).json().data as Premium;
    expect(data.markets.map((m) => m.market)).toEqual(['black_market_cash', 'black_market_transfer']);
    expect(data.markets[1]).toEqual({
      market: 'black_market_transfer',
      now: null,
      last7Days: { from: day(6), to: day(0), days: 0, average: null, minimum: null, maximum: null },
      last30Days: { from: day(29), to: day(0), days: 0, average: null, minimum: null, maximum: null },
    });
  });

  it('works out buy, sell and mid separately', async () => {
    const created = await t.createRate({
      market: 'black_market_transfer',
      base: 'naira',
      asset: 'dollar',
      buy: 1100,
      sell: 1173,
    });
    const transfer = ((await premium()).json().data as Premium).markets[1]!;
    // buy 1100 / 1000 → 10 %; sell 1173 / 1020 → 15 %; mid 1136.5 / 1010 → 12.524752… %
    expect(transfer.now).toEqual(expect.objectContaining({ buy: 10, sell: 15, mid: 12.5248 }));
    expect(transfer.last7Days).toEqual(
      expect.objectContaining({ days: 1, average: { buy: 10, sell: 15, mid: 12.5248 } }),
    );
    await t.runtime.database.db.delete(rates).where(eq(rates.id, created.json().data._id as string));
  });

  it('counts each answer against the quota and logs it, like the other paid calls', async () => {
    const counted = await paidClient(t, { limit: 5, processed: 0 });
    const res = await t.app.inject({
      method: 'GET',
      url: '/v1/rates/premium?base=naira&asset=dollar',
      headers: counted.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['ratelimit-remaining']).toBe('4');
    await eventually(async () => {
      const rows = await t.runtime.database.db
        .select()
        .from(requestLogs)
        .where(eq(requestLogs.appId, counted.appId));
      expect(rows.map((r) => [r.originalUrl, r.status])).toEqual([
        ['/v1/rates/premium?base=naira&asset=dollar', 200],
      ]);
    });
  });

  it('charges nothing and keeps nothing when the database cannot be read, and answers once it can', async () => {
    const counted = await paidClient(t, { limit: 5, processed: 0 });
    const url = '/v1/rates/premium?base=rand&asset=euro';
    const db = t.runtime.database.db;
    await db.execute(sql`alter view served_rates rename to served_rates_moved_away`);
    try {
      const failed = await t.app.inject({ method: 'GET', url, headers: counted.headers });
      expect(failed.statusCode).toBe(500);
    } finally {
      await db.execute(sql`alter view served_rates_moved_away rename to served_rates`);
    }
    const res = await t.app.inject({ method: 'GET', url, headers: counted.headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['ratelimit-remaining']).toBe('4');
  });

  it('refuses a call without a key with 401', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/rates/premium?base=naira&asset=dollar' });
    expect(res.statusCode).toBe(401);
  });

  it.each([
    ['no base', 'asset=dollar'],
    ['no asset', 'base=naira'],
    ['an unknown base', 'base=yen&asset=dollar'],
  ])('refuses %s with 400 and a message, without counting it', async (_name, query) => {
    const strict = await paidClient(t, { limit: 5, processed: 0 });
    const res = await t.app.inject({
      method: 'GET',
      url: `/v1/rates/premium?${query}`,
      headers: strict.headers,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toEqual(expect.any(String));
    expect(res.headers['ratelimit-remaining']).toBe('5');
  });
});

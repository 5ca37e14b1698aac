// Every quote carries mid, spread, change against the previous close, its age and staleness.
import { eq } from 'drizzle-orm';
import type { Asset, Base, Market, Quote } from '@afrofx/shared';
import { loadConfig } from '../src/config';
import { rates } from '../src/db/schema';
import { paidClient, type PaidClient } from './support/paid-api';
import { createTestApp, type TestApp } from './support/test-app';

const HOUR_MS = 3_600_000;

let t: TestApp;
let client: PaidClient;

async function seed(
  market: Market,
  base: Base,
  asset: Asset,
  entries: Array<{ at: string | Date; buy: number; sell: number }>,
) {
  await t.runtime.database.db.insert(rates).values(
    entries.map(({ at, buy, sell }) => ({
      market,
      base,
      asset,
      buy,
      sell,
      createdAt: new Date(at),
      updatedAt: new Date(at),
    })),
  );
}

async function paidQuote(market: Market, base: Base, asset: Asset): Promise<Quote> {
  const res = await t.app.inject({
    method: 'GET',
    url: `/v1/rates?market=${market}&base=${base}&asset=${asset}`,
    headers: client.headers,
  });
  expect(res.statusCode).toBe(200);
  const data = res.json().data as Quote[];
  expect(data).toHaveLength(1);
  return data[0]!;
}

beforeAll(async () => {
  t = await createTestApp({ STALE_AFTER_HOURS: '2' });
  client = await paidClient(t, { limit: 1000 });
  // Worked example: a change across a UTC midnight. The latest entry is 10 minutes into 2 March; the previous close is
  // the last entry of 1 March (23:50), not its earlier one (10:00).
  await seed('bank', 'naira', 'dollar', [
    { at: '2026-03-01T10:00:00Z', buy: 1440, sell: 1460 },
    { at: '2026-03-01T23:50:00Z', buy: 1450.5, sell: 1460.25 },
    { at: '2026-03-02T00:10:00Z', buy: 1500.5, sell: 1510.25 },
  ]);
  // Two entries on the latest day: the earlier one of the same day is not the previous close.
  await seed('black_market_cash', 'naira', 'dollar', [
    { at: '2026-03-01T18:00:00Z', buy: 1600, sell: 1620 },
    { at: '2026-03-02T08:00:00Z', buy: 1700, sell: 1720 },
    { at: '2026-03-02T16:00:00Z', buy: 1610, sell: 1630 },
  ]);
  // The previous day has no entry: the previous close is the last one before it.
  await seed('bank', 'rand', 'euro', [
    { at: '2026-02-25T12:00:00Z', buy: 20, sell: 20.5 },
    { at: '2026-02-27T12:00:00Z', buy: 20.2, sell: 20.6 },
  ]);
  // Decimal places that binary floating point cannot hold: 0.3 − 0.1 is 0.19999999999999998 in JavaScript.
  await seed('bank', 'cedis', 'british_pounds', [
    { at: '2026-03-01T12:00:00Z', buy: 0.1, sell: 0.2 },
    { at: '2026-03-02T12:00:00Z', buy: 0.1, sell: 0.3 },
  ]);
  // A single entry: nothing to compare with.
  await seed('black_market_transfer', 'kenyan-shilling', 'canadian_dollar', [
    { at: '2026-03-02T12:00:00Z', buy: 93.123456, sell: 94.654321 },
  ]);
  // Freshness against STALE_AFTER_HOURS=2, from seeded timestamps.
  const now = Date.now();
  await seed('black_market_transfer', 'naira', 'euro', [
    { at: new Date(now - 3 * HOUR_MS), buy: 1700, sell: 1750 },
  ]);
  await seed('black_market_transfer', 'naira', 'dollar', [
    { at: new Date(now - 1 * HOUR_MS), buy: 1500, sell: 1540 },
  ]);
});
afterAll(() => t.close());

describe('GET /v1/rates quote fields', () => {
  it('works out mid, spread and change across a UTC midnight against the previous day’s last entry', async () => {
    expect(await paidQuote('bank', 'naira', 'dollar')).toEqual(
      expect.objectContaining({
        buy: 1500.5,
        sell: 1510.25,
        mid: 1505.375,
        spread: 9.75,
        // 9.75 / 1505.375 × 100 = 0.647679…
        spreadPct: 0.6477,
        // previous close 1450.5 / 1460.25: mid 1455.375; 1505.375 − 1455.375 = 50
        change: 50,
        // 50 / 1455.375 × 100 = 3.435540…
        changePct: 3.4355,
        updatedAt: '2026-03-02T00:10:00.000Z',
        stale: true,
      }),
    );
  });

  it('compares with the previous UTC day, not with an earlier entry of the same day', async () => {
    const quote = await paidQuote('black_market_cash', 'naira', 'dollar');
    // 1620 − 1610 against the 1 March close 1600 / 1620 (mid 1610); 1 March 18:00 beats 2 March 08:00.
    expect(quote).toEqual(expect.objectContaining({ mid: 1620, spread: 20, change: 10, changePct: 0.6211 }));
  });

  it('falls back to the last earlier day when the previous UTC day has no entry', async () => {
    const quote = await paidQuote('bank', 'rand', 'euro');
    // mid 20.4 against 20.25 (25 February): change 0.15, 0.15 / 20.25 × 100 = 0.740740…
    expect(quote).toEqual(
      expect.objectContaining({ mid: 20.4, spread: 0.4, spreadPct: 1.9608, change: 0.15, changePct: 0.7407 }),
    );
  });

  it('keeps the entry precision without float noise', async () => {
    const quote = await paidQuote('bank', 'cedis', 'british_pounds');
    expect(quote).toEqual(
      expect.objectContaining({ mid: 0.2, spread: 0.2, spreadPct: 100, change: 0.05, changePct: 33.3333 }),
    );
    const six = await paidQuote('black_market_transfer', 'kenyan-shilling', 'canadian_dollar');
    // (93.123456 + 94.654321) / 2 = 93.8888885, rounded half up to 6 places.
    expect(six).toEqual(expect.objectContaining({ mid: 93.888889, spread: 1.530865 }));
  });

  it('answers null change and changePct when there is no earlier day', async () => {
    const quote = await paidQuote('black_market_transfer', 'kenyan-shilling', 'canadian_dollar');
    expect(quote.change).toBeNull();
    expect(quote.changePct).toBeNull();
  });

  it('is stale once older than STALE_AFTER_HOURS, with its age in seconds', async () => {
    const old = await paidQuote('black_market_transfer', 'naira', 'euro');
    expect(old.stale).toBe(true);
    expect(old.ageSeconds).toBeGreaterThanOrEqual(3 * 3600);
    expect(old.ageSeconds).toBeLessThan(3 * 3600 + 600);
    const recent = await paidQuote('black_market_transfer', 'naira', 'dollar');
    expect(recent.stale).toBe(false);
    expect(recent.ageSeconds).toBeGreaterThanOrEqual(3600);
    expect(recent.ageSeconds).toBeLessThan(3600 + 600);
  });

  it('works out the new fields again when an admin enters a rate', async () => {
    const before = await paidQuote('bank', 'rand', 'euro');
    const created = await t.createRate({ market: 'bank', base: 'rand', asset: 'euro', buy: 21, sell: 21.5 });
    // The snapshot reloads at once on the change feed; a new day's entry compares with 27 February's close.
    const after = await paidQuote('bank', 'rand', 'euro');
    expect(after).toEqual(
      expect.objectContaining({ mid: 21.25, spread: 0.5, change: 0.85, changePct: 4.1667, stale: false }),
    );
    expect(after.ageSeconds).toBeLessThan(600);
    expect(before.mid).toBe(20.4);
    await t.runtime.database.db.delete(rates).where(eq(rates.id, created.json().data._id as string));
  });
});

describe('GET /v1/user/fetch_rates/{market} (the site’s table)', () => {
  it('carries the same quote fields beside the existing ones, without a key', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/user/fetch_rates/bank' });
    expect(res.statusCode).toBe(200);
    const usd = (res.json().data as Quote[]).find((r) => r.base === 'naira' && r.asset === 'dollar');
    expect(usd).toEqual({
      _id: expect.any(String),
      market: 'bank',
      base: 'naira',
      asset: 'dollar',
      buy: 1500.5,
      sell: 1510.25,
      createdAt: '2026-03-02T00:10:00.000Z',
      updatedAt: '2026-03-02T00:10:00.000Z',
      source: 'seed',
      publishedAt: '2026-03-02T00:10:00.000Z',
      publicationId: null,
      revision: 0,
      mid: 1505.375,
      spread: 9.75,
      spreadPct: 0.6477,
      change: 50,
      changePct: 3.4355,
      ageSeconds: expect.any(Number),
      stale: true,
    });
  });
});

describe('STALE_AFTER_HOURS', () => {
  it('defaults to 24 hours', () => {
    expect(loadConfig({ NODE_ENV: 'test', DATA_DIR: t.config.dataDir }).staleAfterHours).toBe(24);
  });

  it.each(['0', '-3', '1.5', 'a day'])('refuses %s with a clear message', (value) => {
    expect(() =>
      loadConfig({ NODE_ENV: 'test', DATA_DIR: t.config.dataDir, STALE_AFTER_HOURS: value }),
    ).toThrow(`STALE_AFTER_HOURS must be a whole number above 0, got "${value}"`);
  });
});

describe('OpenAPI document', () => {
  it('documents the quote fields, their precision, and the premium and status calls with examples', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json() as {
      paths: Record<string, { get: { description?: string; responses: Record<string, unknown> } }>;
    };
    const ratesOk = JSON.stringify(doc.paths['/v1/rates']!.get.responses['200']);
    for (const field of ['mid', 'spread', 'spreadPct', 'change', 'changePct', 'ageSeconds', 'stale'])
      expect(ratesOk).toContain(`"${field}"`);
    expect(ratesOk).toContain('exact to the 6 decimal places');
    // The site's own call is in the console document.
    const consoleDoc = (
      await t.app.inject({ method: 'GET', url: '/v1/openapi-console.json' })
    ).json() as typeof doc;
    expect(JSON.stringify(consoleDoc.paths['/v1/user/fetch_rates/{market}']!.get.responses['200'])).toContain(
      '"changePct"',
    );
    expect(doc.paths['/v1/rates/premium']!.get.description).toContain(
      "a day's value compares the market's last entry of that UTC day",
    );
    expect(JSON.stringify(doc.paths['/v1/rates/premium']!.get.responses['200'])).toContain('"examples"');
    expect(JSON.stringify(doc.paths['/v1/status']!.get.responses['200'])).toContain('"examples"');
  });
});

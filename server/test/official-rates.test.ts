import { count } from 'drizzle-orm';
import { officialRates, officialSourceStatus } from '../src/db/schema';
import { SourceUnavailable } from '../src/modules/official-rates/sources';
import { paidClient } from './support/paid-api';
import { startFakeCentralBanks, type FakeCentralBanks } from './support/central-banks';
import { createTestApp, eventually, type TestApp } from './support/test-app';

const RANGE = { from: '2026-03-26', to: '2026-03-27' };

let banks: FakeCentralBanks;
let t: TestApp;
beforeAll(async () => {
  banks = await startFakeCentralBanks();
  t = await createTestApp(banks.env);
});
afterAll(async () => {
  await t.close();
  await banks.close();
});
beforeEach(async () => {
  Object.assign(banks.modes, { cbn: 'normal', cbk: 'normal', sarb: 'normal', bog: 'normal' });
  await t.runtime.database.db.delete(officialRates);
  await t.runtime.database.db.delete(officialSourceStatus);
});

const service = () => t.runtime.services.officialImport;
const stored = async () =>
  (
    await t.runtime.database.db
      .select({
        source: officialRates.source,
        date: officialRates.rateDate,
        base: officialRates.base,
        asset: officialRates.asset,
        mid: officialRates.mid,
        buy: officialRates.buy,
        sell: officialRates.sell,
      })
      .from(officialRates)
  ).sort((a, b) => `${a.source}${a.date}${a.asset}`.localeCompare(`${b.source}${b.date}${b.asset}`));

async function storedCount() {
  const [row] = await t.runtime.database.db.select({ value: count() }).from(officialRates);
  return row!.value;
}

async function rateStatus() {
  const res = await t.app.inject({
    method: 'GET',
    url: '/v1/admin/rate_status',
    headers: await t.adminHeaders(),
  });
  expect(res.statusCode).toBe(200);
  return res.json().data as {
    officialSources: Array<{
      source: string;
      state: string;
      lastError: string | null;
      lastSuccessAt: string | null;
      lastFailureAt: string | null;
      attribution: string;
    }>;
  };
}

describe('Central Bank of Nigeria adapter', () => {
  it('reads naira per unit from the whole-history array, matching name variants trimmed and upper-cased, and no Canadian dollar', async () => {
    await expect(service().importSource('cbn', RANGE)).resolves.toEqual({ found: 6, imported: 6 });
    expect(await stored()).toEqual([
      {
        source: 'cbn',
        date: '2026-03-26',
        base: 'naira',
        asset: 'british_pounds',
        mid: 2041,
        buy: 2040,
        sell: 2042,
      },
      {
        source: 'cbn',
        date: '2026-03-26',
        base: 'naira',
        asset: 'dollar',
        mid: 1530.6,
        buy: 1530.1,
        sell: 1531.1,
      },
      {
        source: 'cbn',
        date: '2026-03-26',
        base: 'naira',
        asset: 'euro',
        mid: 1590.1997,
        buy: 1589.6201,
        sell: 1590.7793,
      },
      {
        source: 'cbn',
        date: '2026-03-27',
        base: 'naira',
        asset: 'british_pounds',
        mid: 2045,
        buy: 2044,
        sell: 2046,
      },
      {
        source: 'cbn',
        date: '2026-03-27',
        base: 'naira',
        asset: 'dollar',
        mid: 1532.5,
        buy: 1532,
        sell: 1533,
      },
      { source: 'cbn', date: '2026-03-27', base: 'naira', asset: 'euro', mid: 1591.5, buy: 1591, sell: 1592 },
    ]);
  });
});

describe('Central Bank of Kenya adapter', () => {
  it('POSTs for all rows, reads the JSON served as text/html with escaped dates, maps CAN $ and CAN DOLLAR, and skips the crosses', async () => {
    await expect(service().importSource('cbk', { from: '2026-03-27', to: '2026-03-27' })).resolves.toEqual({
      found: 4,
      imported: 4,
    });
    expect(banks.requests).toContain(
      'POST /cbk/wp-admin/admin-ajax.php?action=get_wdtable&table_id=193 draw=1&start=0&length=-1',
    );
    expect(await stored()).toEqual([
      {
        source: 'cbk',
        date: '2026-03-27',
        base: 'kenyan-shilling',
        asset: 'british_pounds',
        mid: 172.2,
        buy: null,
        sell: null,
      },
      {
        source: 'cbk',
        date: '2026-03-27',
        base: 'kenyan-shilling',
        asset: 'canadian_dollar',
        mid: 94.2,
        buy: null,
        sell: null,
      },
      {
        source: 'cbk',
        date: '2026-03-27',
        base: 'kenyan-shilling',
        asset: 'dollar',
        mid: 129.3012,
        buy: null,
        sell: null,
      },
      {
        source: 'cbk',
        date: '2026-03-27',
        base: 'kenyan-shilling',
        asset: 'euro',
        mid: 140.4,
        buy: null,
        sell: null,
      },
    ]);
    await service().importSource('cbk', RANGE);
    expect((await stored()).filter((r) => r.asset === 'canadian_dollar').map((r) => r.mid)).toEqual([
      94.1, 94.2,
    ]);
  });
});

describe('South African Reserve Bank adapter', () => {
  it('asks each series for the days, skips empty and zero values, and inverts the Canadian dollars per rand', async () => {
    await expect(service().importSource('sarb', { from: '2026-03-25', to: '2026-03-27' })).resolves.toEqual({
      found: 7,
      imported: 7,
    });
    expect(banks.requests).toContain('GET /sarb/EXCB031D/2026-03-25T00:00:00/2026-03-27T00:00:00');
    const rows = await stored();
    expect(rows.filter((r) => r.date === '2026-03-27').map((r) => [r.asset, r.mid])).toEqual([
      ['british_pounds', 22.9],
      ['canadian_dollar', 12.3762],
      ['dollar', 17.1302],
      ['euro', 18.61],
    ]);
    // The euro's empty value on the 26th and the dollar's zero on the 25th are not figures.
    expect(rows.filter((r) => r.date !== '2026-03-27').map((r) => [r.date, r.asset])).toEqual([
      ['2026-03-26', 'british_pounds'],
      ['2026-03-26', 'canadian_dollar'],
      ['2026-03-26', 'dollar'],
    ]);
    expect(rows.every((r) => r.base === 'rand' && r.buy === null && r.sell === null)).toBe(true);
  });
});

describe('Bank of Ghana adapter', () => {
  it('reads the daily interbank table by its headings', async () => {
    await expect(service().importSource('bog', RANGE)).resolves.toEqual({ found: 3, imported: 3 });
    expect((await stored()).map((r) => [r.asset, r.mid, r.buy, r.sell])).toEqual([
      ['british_pounds', 14.61, 14.6, 14.62],
      ['dollar', 10.9555, 10.95, 10.961],
      ['euro', 11.855, 11.85, 11.86],
    ]);
  });

  it('reports the source down, storing nothing, when a captcha page answers instead of the table', async () => {
    banks.modes.bog = 'captcha';
    await expect(service().importSource('bog', RANGE)).rejects.toThrow(SourceUnavailable);
    expect(await stored()).toEqual([]);
    const bog = (await rateStatus()).officialSources.find((s) => s.source === 'bog')!;
    expect(bog).toMatchObject({ state: 'down', attribution: 'Source: Bank of Ghana' });
    expect(bog.lastError).toMatch(/no rates table/);
  });
});

describe('the official import', () => {
  it('takes an empty answer on a holiday as nothing new, not as a failure', async () => {
    for (const source of ['cbn', 'cbk', 'sarb'] as const) banks.modes[source] = 'holiday';
    for (const source of ['cbn', 'cbk', 'sarb'] as const) {
      await expect(service().importSource(source, RANGE)).resolves.toEqual({ found: 0, imported: 0 });
    }
    const states = (await rateStatus()).officialSources.filter((s) => s.source !== 'bog');
    expect(states.map((s) => s.state)).toEqual(['up', 'up', 'up']);
  });

  it('adds nothing the second time it runs', async () => {
    const first = [];
    for (const source of ['cbn', 'cbk', 'sarb', 'bog'] as const)
      first.push(await service().importSource(source, RANGE));
    const afterFirst = await storedCount();
    expect(afterFirst).toBe(first.reduce((sum, r) => sum + r.imported, 0));
    expect(afterFirst).toBeGreaterThan(0);
    for (const source of ['cbn', 'cbk', 'sarb', 'bog'] as const) {
      const again = await service().importSource(source, RANGE);
      expect(again.imported).toBe(0);
      expect(again.found).toBeGreaterThan(0);
    }
    const afterSecond = await storedCount();
    expect(afterSecond).toBe(afterFirst);
  });

  it('leaves the other sources imported and shows the one that is down, through the queued jobs', async () => {
    banks.modes.cbk = 'down';
    banks.modes.sarb = 'hang';
    await t.runtime.services.officialImport.enqueueImports(new Date('2026-03-27T10:00:00Z'));
    const status = await eventually(async () => {
      const current = await rateStatus();
      const states = Object.fromEntries(current.officialSources.map((s) => [s.source, s.state]));
      expect(states).toEqual({ cbn: 'up', cbk: 'down', sarb: 'down', bog: 'up' });
      return current;
    }, 30_000);
    expect(status.officialSources.find((s) => s.source === 'cbk')!.lastError).toMatch(/HTTP 503/);
    expect(status.officialSources.find((s) => s.source === 'sarb')!.lastError).toMatch(
      /no answer in 3000 ms/,
    );
    const sources = new Set((await stored()).map((r) => r.source));
    expect([...sources].sort()).toEqual(['bog', 'cbn']);
  });
});

describe('GET /v1/rates/official', () => {
  it("serves each pair's newest official figure with its source's attribution, and a pair's days with from and to", async () => {
    await service().importSource('cbn', RANGE);
    await service().importSource('sarb', RANGE);
    const client = await paidClient(t, { limit: 100, processed: 0 });
    const latest = await t.app.inject({
      method: 'GET',
      url: '/v1/rates/official?base=NGN',
      headers: client.headers,
    });
    expect(latest.statusCode).toBe(200);
    const byAsset = (a: { asset: string }, b: { asset: string }) => a.asset.localeCompare(b.asset);
    expect(latest.json().data.sort(byAsset)).toEqual([
      {
        source: 'cbn',
        date: '2026-03-27',
        base: 'naira',
        asset: 'british_pounds',
        mid: 2045,
        buy: 2044,
        sell: 2046,
        attribution: 'Source: Central Bank of Nigeria',
      },
      {
        source: 'cbn',
        date: '2026-03-27',
        base: 'naira',
        asset: 'dollar',
        mid: 1532.5,
        buy: 1532,
        sell: 1533,
        attribution: 'Source: Central Bank of Nigeria',
      },
      {
        source: 'cbn',
        date: '2026-03-27',
        base: 'naira',
        asset: 'euro',
        mid: 1591.5,
        buy: 1591,
        sell: 1592,
        attribution: 'Source: Central Bank of Nigeria',
      },
    ]);
    const days = await t.app.inject({
      method: 'GET',
      url: '/v1/rates/official?base=rand&asset=canadian_dollar&from=2026-03-01&to=2026-03-31',
      headers: client.headers,
    });
    expect(days.json().data.map((r: { date: string; mid: number }) => [r.date, r.mid])).toEqual([
      ['2026-03-27', 12.3762],
      ['2026-03-26', 12.4069],
    ]);
    // The pair pages read the newest figures without a key, with the same attribution.
    const site = await t.app.inject({ method: 'GET', url: '/v1/user/official_rates' });
    expect(site.statusCode).toBe(200);
    expect(site.json().data).toEqual(expect.arrayContaining(latest.json().data));
    const bad = await t.app.inject({
      method: 'GET',
      url: '/v1/rates/official?from=2026-03-31&to=2026-03-01',
      headers: client.headers,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/from must not be after to/);
  });
});

describe('the official series beside the markets', () => {
  it('puts the official figure on the pair’s quotes and computes the premium against it instead of the bank market', async () => {
    for (const [market, buy, sell] of [
      ['bank', 1000, 1020],
      ['black_market_cash', 1685.2, 1686.3],
    ] as const) {
      await t.createRate({ market, base: 'naira', asset: 'dollar', buy, sell });
    }
    await service().importSource('cbn', RANGE);
    const client = await paidClient(t, { limit: 100, processed: 0 });
    const official = {
      source: 'cbn',
      date: '2026-03-27',
      mid: 1532.5,
      buy: 1532,
      sell: 1533,
      attribution: 'Source: Central Bank of Nigeria',
    };
    const quotes = await eventually(async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/v1/rates?base=naira&asset=dollar',
        headers: client.headers,
      });
      const data = res.json().data as Array<{ market: string; official?: unknown }>;
      expect(data.map((q) => q.official)).toEqual([official, official]);
      return data;
    });
    expect(quotes.map((q) => q.market).sort()).toEqual(['bank', 'black_market_cash']);
    const premium = await t.app.inject({
      method: 'GET',
      url: '/v1/rates/premium?base=naira&asset=dollar',
      headers: client.headers,
    });
    expect(premium.statusCode).toBe(200);
    const body = premium.json().data;
    expect(body.official).toEqual({
      source: 'cbn',
      date: '2026-03-27',
      attribution: 'Source: Central Bank of Nigeria',
    });
    const cash = body.markets.find((m: { market: string }) => m.market === 'black_market_cash');
    // 1685.2 / 1532 − 1, 1686.3 / 1533 − 1 and 1685.75 / 1532.5 − 1: 10 % over the official figure (the bank
    // market's 1000 / 1020 would make it over 65 %).
    expect(cash.now).toMatchObject({ buy: 10, sell: 10, mid: 10, bankUpdatedAt: '2026-03-27T00:00:00.000Z' });
  });
});

import { createSigner } from 'fast-jwt';
import { BASES, ASSETS } from '@afrofx/shared';
import { rates } from '../src/db/schema';
import { createTestApp, type TestApp } from './support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const valid = { market: 'bank', asset: 'dollar', base: 'naira', buy: 1450.5, sell: 1470.25 };

async function rateCount() {
  const res = await t.app.inject({
    method: 'GET',
    url: '/v1/admin/fetch_all_rates',
    headers: await t.adminHeaders(),
  });
  return res.json().pagination.count as number;
}

describe('POST admin/create_rate', () => {
  it('stores a rate and answers 201 with it', async () => {
    const res = await t.createRate(valid);
    expect(res.json()).toMatchObject({
      message: 'Rate created successfully.',
      data: { ...valid, _id: expect.any(String) },
    });
  });

  it.each([
    ['a missing field', { ...valid, sell: undefined }, 'Sell is required.'],
    ['a non-numeric buy', { ...valid, buy: 'lots' }, 'Buy must be a number.'],
    ['a zero buy', { ...valid, buy: 0 }, 'Buy must be at least 0.000001.'],
    ['a negative sell', { ...valid, sell: -3 }, 'Sell must be at least 0.000001.'],
    // Stored with 6 decimals, 1e-7 became 0 and every quote of the pair answered 500.
    ['prices that round to zero', { ...valid, buy: 1e-7, sell: 1e-7 }, 'Buy must be at least 0.000001.'],
    ['a buy above the sell', { ...valid, buy: 1500, sell: 1400 }, 'The buy is above the sell.'],
    ['a buy given as text', { ...valid, buy: '1450.5' }, 'Buy must be a number.'],
    ['a buy given as true', { ...valid, buy: true }, 'Buy must be a number.'],
    ['a market given as a list', { ...valid, market: ['bank'] }, 'Market must be a string.'],
    ['an unknown market', { ...valid, market: 'street' }, 'Market must be one of'],
    ['an unknown base', { ...valid, base: 'cfa' }, 'Base must be one of'],
    ['an unknown asset', { ...valid, asset: 'yen' }, 'Asset must be one of'],
    ['a smuggled field', { ...valid, role: 'admin' }, 'The field "role" is not accepted here.'],
  ])('rejects %s with 400 and stores nothing', async (_name, body, message) => {
    const before = await rateCount();
    const res = await t.createRate(body, 400);
    expect(res.json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: expect.stringContaining(message),
    });
    expect(await rateCount()).toBe(before);
  });

  it('stores a buy above the sell when the admin confirms it', async () => {
    const res = await t.createRate({ ...valid, buy: 1500, sell: 1400, buy_above_sell: true });
    expect(res.json().data).toMatchObject({ buy: 1500, sell: 1400 });
  });

  it('rejects a sell of 1e309, which JSON.parse reads as Infinity, with 400', async () => {
    const before = await rateCount();
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/create_rate',
      headers: { ...(await t.adminHeaders()), 'content-type': 'application/json' },
      payload: JSON.stringify(valid).replace('1470.25', '1e309'),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Sell must be a number.');
    expect(await rateCount()).toBe(before);
  });

  it('rejects a body that is not JSON with 400', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/create_rate',
      headers: { ...(await t.adminHeaders()), 'content-type': 'application/json' },
      payload: '{"market":',
    });
    expect(res.statusCode).toBe(400);
  });

  it('answers 413 to a body over 1 MiB', async () => {
    await t.createRate({ ...valid, padding: 'x'.repeat(1024 * 1024 + 10) }, 413);
  });
});

describe('GET admin/fetch_all_rates filters', () => {
  // Rates of 2001, a year no other test writes, so that the filters' answers are known exactly.
  const at = (iso: string) => new Date(iso);
  const seeded = [
    { market: 'bank', base: 'naira', asset: 'dollar', createdAt: at('2001-03-01T08:00:00Z') },
    { market: 'bank', base: 'naira', asset: 'dollar', createdAt: at('2001-03-02T23:59:59Z') },
    { market: 'bank', base: 'naira', asset: 'british_pounds', createdAt: at('2001-03-02T10:00:00Z') },
    { market: 'bank', base: 'cedis', asset: 'dollar', createdAt: at('2001-03-02T11:00:00Z') },
    { market: 'black_market_cash', base: 'naira', asset: 'dollar', createdAt: at('2001-03-02T12:00:00Z') },
    { market: 'bank', base: 'naira', asset: 'dollar', createdAt: at('2001-03-03T00:00:00Z') },
  ] as const;

  beforeAll(async () => {
    await t.runtime.database.db
      .insert(rates)
      .values(seeded.map((rate) => ({ ...rate, buy: 1000, sell: 1010, updatedAt: rate.createdAt })));
  });

  async function list(query: string) {
    return t.app.inject({
      method: 'GET',
      url: `/v1/admin/fetch_all_rates?${query}`,
      headers: await t.adminHeaders(),
    });
  }

  it('lists the rates of one market and pair within the days asked, newest first, with their count', async () => {
    const res = await list('market=bank&base=naira&asset=dollar&from=2001-03-01&to=2001-03-02');
    expect(res.statusCode).toBe(200);
    expect(res.json().pagination).toEqual({ next: null, count: 2 });
    expect(res.json().data.map((rate: { createdAt: string }) => rate.createdAt)).toEqual([
      '2001-03-02T23:59:59.000Z',
      '2001-03-01T08:00:00.000Z',
    ]);
  });

  it('takes a single day as from = to, the whole UTC day included', async () => {
    const res = await list('from=2001-03-02&to=2001-03-02');
    expect(res.json().pagination.count).toBe(4);
    expect(res.json().data).toHaveLength(4);
  });

  it.each([
    ['market', 'market=black_market_cash&to=2001-12-31', 1],
    ['base', 'base=cedis&to=2001-12-31', 1],
    ['asset', 'asset=british_pounds&to=2001-12-31', 1],
    ['a from and a pair', 'from=2001-03-03&to=2001-12-31&market=bank&base=naira&asset=dollar', 1],
  ])('filters by %s', async (_name, query, count) => {
    const res = await list(query);
    expect(res.statusCode).toBe(200);
    expect(res.json().pagination.count).toBe(count);
  });

  it('answers an empty page when nothing matches', async () => {
    const res = await list('market=bank&base=cedis&asset=british_pounds&from=2001-01-01&to=2001-12-31');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ data: [], pagination: { next: null, count: 0 } });
  });

  it.each([
    ['an unknown market', 'market=street', /^The market parameter must be one of: black_market_cash, bank/],
    ['an unknown base', 'base=dollar', /^The base parameter must be one of: naira/],
    ['an unknown asset', 'asset=gold', /^The asset parameter must be one of: dollar/],
    [
      'a date that is not YYYY-MM-DD',
      'from=03/02/2001',
      /^The from parameter must be a day from 1900-01-01 to 2100-12-31\.$/,
    ],
    ['a day that does not exist', 'to=2001-02-30', /^The to parameter must be a valid date\.$/],
    [
      'a from after the to',
      'from=2001-03-03&to=2001-03-01',
      /^The from date must not be after the to date\.$/,
    ],
    ['an unknown filter', 'pair=naira-dollar', /^The pair parameter is not accepted here\.$/],
  ])('refuses %s with 400 and a message', async (_name, query, message) => {
    const res = await list(query);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(message);
  });
});

describe('admin rate calls without a valid admin token', () => {
  const calls = [
    ['GET', '/v1/admin/fetch_all_rates'],
    ['POST', '/v1/admin/create_rate'],
    ['PUT', '/v1/admin/edit_rate/7d0c0a54-3c57-4d0c-9f0f-0c0c0c0c0c0c'],
    ['DELETE', '/v1/admin/delete_rate/7d0c0a54-3c57-4d0c-9f0f-0c0c0c0c0c0c'],
  ] as const;

  it.each(calls)('%s %s without a token is 401', async (method, url) => {
    const res = await t.app.inject({
      method,
      url,
      payload: method === 'GET' || method === 'DELETE' ? undefined : valid,
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('Authentication required.');
  });

  it.each([
    ['a malformed token', 'Bearer not-a-jwt'],
    [
      'a token signed with another secret',
      `Bearer ${createSigner({ key: 'x'.repeat(40) })({ sub: 'a', role: 'admin', ver: 0 })}`,
    ],
    [
      'an alg:none token',
      `Bearer ${createSigner({ algorithm: 'none' })({ sub: 'a', role: 'admin', ver: 0 })}`,
    ],
    ['an expired token', 'expired'],
    ['a tampered token', 'tampered'],
  ])('refuses %s with 401', async (_name, header) => {
    let authorization = header;
    if (header === 'expired') {
      authorization = `Bearer ${createSigner({ key: t.config.jwtSecret, expiresIn: 1, clockTimestamp: Date.now() - 60_000 })({ sub: 'a', role: 'admin', ver: 0 })}`;
    } else if (header === 'tampered') {
      const [head, , sig] = (await t.adminToken()).split('.');
      const body = Buffer.from(JSON.stringify({ sub: 'someone-else', role: 'admin', ver: 0 })).toString(
        'base64url',
      );
      authorization = `Bearer ${head}.${body}.${sig}`;
    }
    const res = await t.app.inject({
      method: 'GET',
      url: '/v1/admin/fetch_all_rates',
      headers: { authorization },
    });
    expect(res.statusCode).toBe(401);
  });

  it('refuses a developer token with 403', async () => {
    const token = t.app.issueToken({
      sub: '7d0c0a54-3c57-4d0c-9f0f-0c0c0c0c0c0c',
      role: 'developer',
      ver: 0,
    });
    const res = await t.app.inject({
      method: 'GET',
      url: '/v1/admin/fetch_all_rates',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(403);
  });
});

describe('PUT admin/edit_rate/{id} and DELETE admin/delete_rate/{id}', () => {
  it('edits a rate, then deletes it', async () => {
    const created = (await t.createRate(valid)).json().data;
    const edited = await t.app.inject({
      method: 'PUT',
      url: `/v1/admin/edit_rate/${created._id}`,
      headers: await t.adminHeaders(),
      payload: { ...valid, buy: 1500, sell: 1520, reason: 'A typo in the buy' },
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().data).toMatchObject({ _id: created._id, buy: 1500, sell: 1520 });

    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/v1/admin/delete_rate/${created._id}?reason=${encodeURIComponent('Entered twice')}`,
      headers: await t.adminHeaders(),
    });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().message).toBe('Rate deleted successfully.');
    const again = await t.app.inject({
      method: 'DELETE',
      url: `/v1/admin/delete_rate/${created._id}?reason=again`,
      headers: await t.adminHeaders(),
    });
    expect(again.statusCode).toBe(404);
  });

  it('answers 404 for an unknown id and 400 for an id that is not one', async () => {
    const unknown = await t.app.inject({
      method: 'PUT',
      url: '/v1/admin/edit_rate/7d0c0a54-3c57-4d0c-9f0f-0c0c0c0c0c0c',
      headers: await t.adminHeaders(),
      payload: { ...valid, reason: 'A typo' },
    });
    expect(unknown.statusCode).toBe(404);
    const garbage = await t.app.inject({
      method: 'DELETE',
      url: "/v1/admin/delete_rate/1'; drop table rates;--?reason=typo",
      headers: await t.adminHeaders(),
    });
    expect(garbage.statusCode).toBe(400);
    expect(garbage.json().message).toBe('The id parameter is not a valid id.');
  });

  it('validates the edit body like the create body', async () => {
    const created = (await t.createRate(valid)).json().data;
    const res = await t.app.inject({
      method: 'PUT',
      url: `/v1/admin/edit_rate/${created._id}`,
      headers: await t.adminHeaders(),
      payload: { ...valid, buy: 'x' },
    });
    expect(res.statusCode).toBe(400);
  });
});

describe('GET admin/fetch_all_rates', () => {
  it('pages 20 at a time, newest first, and ends', async () => {
    const total = await rateCount();
    for (let i = 0; i < 25; i++) await t.createRate({ ...valid, buy: 1000 + i, sell: 1100 + i });
    const count = total + 25;
    const pages = Math.ceil(count / 20);
    const seen: string[] = [];
    let page: number | null = 1;
    while (page !== null) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/v1/admin/fetch_all_rates?page=${page}`,
        headers: await t.adminHeaders(),
      });
      expect(res.statusCode).toBe(200);
      const body: { data: Array<{ _id: string }>; pagination: { next: number | null; count: number } } =
        res.json();
      expect(body.pagination.count).toBe(count);
      seen.push(...body.data.map((r) => r._id));
      expect(page).toBeLessThanOrEqual(pages);
      page = body.pagination.next;
    }
    expect(new Set(seen).size).toBe(count);
    const first = (
      await t.app.inject({ method: 'GET', url: '/v1/admin/fetch_all_rates', headers: await t.adminHeaders() })
    ).json();
    expect(first.data[0].buy).toBe(1024);
  });

  it.each(['0', '-1', 'abc', '1.5', 'Infinity', '1e309', '-0', '9007199254740993'])(
    'rejects page=%s with 400',
    async (page) => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/v1/admin/fetch_all_rates?page=${page}`,
        headers: await t.adminHeaders(),
      });
      expect(res.statusCode).toBe(400);
    },
  );

  it('answers an empty page past the end', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/v1/admin/fetch_all_rates?page=999',
      headers: await t.adminHeaders(),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([]);
    expect(res.json().pagination.next).toBeNull();
  });
});

describe('GET user/fetch_rates/{market}', () => {
  it('returns the latest record per base and asset of that market only', async () => {
    await t.createRate({ market: 'black_market_cash', asset: 'euro', base: 'rand', buy: 20, sell: 21 });
    await t.createRate({ market: 'black_market_cash', asset: 'euro', base: 'rand', buy: 20.5, sell: 21.5 });
    await t.createRate({ market: 'black_market_transfer', asset: 'euro', base: 'rand', buy: 99, sell: 100 });
    const res = await t.app.inject({ method: 'GET', url: '/v1/user/fetch_rates/black_market_cash' });
    expect(res.statusCode).toBe(200);
    const rates = res.json().data as Array<{ market: string; base: string; asset: string; buy: number }>;
    expect(rates.every((r) => r.market === 'black_market_cash')).toBe(true);
    expect(rates.filter((r) => r.base === 'rand' && r.asset === 'euro')).toEqual([
      expect.objectContaining({ buy: 20.5 }),
    ]);
    const pairs = rates.map((r) => `${r.base}/${r.asset}`);
    expect(new Set(pairs).size).toBe(pairs.length);
    expect(pairs.every((p) => BASES.some((b) => p.startsWith(b)) && ASSETS.some((a) => p.endsWith(a)))).toBe(
      true,
    );
  });

  it('is a 400 for an unknown market, not a 500', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/user/fetch_rates/unknown' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(
      'The market parameter must be one of: black_market_cash, bank, black_market_transfer.',
    );
  });

  it('answers an empty list for a market without rates', async () => {
    const fresh = await createTestApp();
    try {
      const res = await fresh.app.inject({ method: 'GET', url: '/v1/user/fetch_rates/bank' });
      expect(res.json()).toEqual({ data: [], message: 'Rates fetched.' });
    } finally {
      await fresh.close();
    }
  });
});

import { asc, desc, sql } from 'drizzle-orm';
import { rates, rateTweets } from '../src/db/schema';
import { createTestApp, eventually, type TestApp } from './support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function allRateIds() {
  const ids: string[] = [];
  let page: number | null = 1;
  while (page !== null) {
    const res = await t.app.inject({
      method: 'GET',
      url: `/v1/admin/fetch_all_rates?page=${page}`,
      headers: await t.adminHeaders(),
    });
    const body: { data: Array<{ _id: string }>; pagination: { next: number | null } } = res.json();
    ids.push(...body.data.map((r) => r._id));
    page = body.pagination.next;
  }
  return ids;
}

/** The rates table as the export must write it: oldest first, one CSV line per rate. */
async function ratesAsCsvLines() {
  const rows = await t.runtime.database.db.select().from(rates).orderBy(asc(rates.createdAt), asc(rates.id));
  return rows.map((r) =>
    [
      r.id,
      r.market,
      r.base,
      r.asset,
      r.buy,
      r.sell,
      r.createdAt.toISOString(),
      r.updatedAt.toISOString(),
      r.source,
      r.publicationId ?? '',
      0,
    ].join(','),
  );
}

describe('POST admin/export_rate_to_csv', () => {
  it('e-mails every rate as a CSV attachment, one line per rate', async () => {
    const rate = (
      await t.createRate({ market: 'bank', asset: 'dollar', base: 'naira', buy: 1450.5, sell: 1470.25 })
    ).json().data;
    await t.createRate({ market: 'black_market_cash', asset: 'euro', base: 'cedis', buy: 12.9, sell: 13.1 });
    await t.createRate({
      market: 'black_market_transfer',
      asset: 'british_pounds',
      base: 'kenyan-shilling',
      buy: 172.1,
      sell: 174,
    });
    const ids = await allRateIds();

    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/export_rate_to_csv',
      headers: await t.adminHeaders(),
      payload: { email: 'ops@example.com' },
    });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ data: null, message: 'The rates export will be sent to ops@example.com.' });

    const mail = await eventually(async () => {
      const [found] = await t.mailsTo('ops@example.com');
      expect(found).toBeDefined();
      return found!;
    });
    expect(mail.subject).toBe('Your AfroFX rates export');
    expect(mail.attachments).toHaveLength(1);
    const [csv] = mail.attachments;
    expect(csv!.filename).toMatch(/^afrofx-rates-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(csv!.contentType).toBe('text/csv');

    const [header, ...lines] = csv!.content.trimEnd().split('\n');
    expect(header).toBe('id,market,base,asset,buy,sell,createdAt,updatedAt,source,publicationId,revision');
    expect(lines).toEqual(await ratesAsCsvLines());
    expect(lines.map((line) => line.split(',')[0]).sort()).toEqual([...ids].sort());
    expect(lines).toContain(
      `${rate._id},bank,naira,dollar,1450.5,1470.25,${rate.createdAt},${rate.updatedAt},desk,${rate.publicationId},0`,
    );
    expect(mail.raw).toContain(`(${ids.length} rates)`);
  });

  it('exports every rate once across many batches, also rates created in the same microsecond', async () => {
    // Groups of 7 share one timestamp and neighbouring groups are 1 µs apart: a batch boundary inside a group, or
    // a resume key cut to milliseconds, would repeat or drop rows.
    await t.runtime.database.db.execute(sql`
      insert into rates (market, asset, base, buy, sell, created_at, updated_at)
      select 'bank', 'dollar', 'naira', g, g + 1,
             timestamptz '2020-01-01 00:00:00.123456+00' + (g / 7) * interval '1 microsecond',
             timestamptz '2020-01-01 00:00:00.123456+00'
      from generate_series(1, 2345) g`);
    const expected = await ratesAsCsvLines();
    expect(expected.length).toBeGreaterThan(2345);

    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/export_rate_to_csv',
      headers: await t.adminHeaders(),
      payload: { email: 'batches@example.com' },
    });
    expect(res.statusCode).toBe(202);
    const mail = await eventually(async () => {
      const [found] = await t.mailsTo('batches@example.com');
      expect(found).toBeDefined();
      return found!;
    });
    const [header, ...lines] = mail.attachments[0]!.content.trimEnd().split('\n');
    expect(header).toBe('id,market,base,asset,buy,sell,createdAt,updatedAt,source,publicationId,revision');
    expect(lines).toEqual(expected);
    expect(mail.raw).toContain(`(${expected.length} rates)`);
  });

  it('reads the rates a batch at a time as the attachment is read, not all at once', async () => {
    const total = (await ratesAsCsvLines()).length;
    const { csv, rowCount } = await t.runtime.services.ratesCsv.csv();
    expect(rowCount).toBe(total);
    const reader = csv[Symbol.asyncIterator]();
    await reader.next();
    // Rates deleted once the export has started reading are missing from the rest of the file: it had not read them.
    await t.runtime.database.db.execute(
      sql`delete from rates where market = 'bank' and asset = 'dollar' and buy > 1000`,
    );
    let text = '';
    for (let chunk = await reader.next(); !chunk.done; chunk = await reader.next())
      text += String(chunk.value);
    expect(text.split('\n').length).toBeLessThan(total);
  });

  it('fails the export when the database fails half-way, so the job is retried', async () => {
    await t.runtime.database.db.execute(sql`
      insert into rates (market, asset, base, buy, sell)
      select 'bank', 'euro', 'naira', g, g + 1 from generate_series(1, 2500) g`);
    const { csv } = await t.runtime.services.ratesCsv.csv();
    const reader = csv[Symbol.asyncIterator]();
    await reader.next();
    await t.runtime.database.db.execute(sql`alter view served_rates rename to served_rates_away`);
    try {
      await expect(
        (async () => {
          for (let chunk = await reader.next(); !chunk.done; chunk = await reader.next());
        })(),
      ).rejects.toThrow(/rates/);
    } finally {
      await t.runtime.database.db.execute(sql`alter view served_rates_away rename to served_rates`);
    }
  });

  it.each([
    [
      'an invalid e-mail',
      { email: 'ops-at-example' },
      'Please enter a valid e-mail address, like name@example.com.',
    ],
    ['a missing e-mail', {}, 'E-mail address is required.'],
  ])('rejects %s with 400', async (_name, payload, message) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/export_rate_to_csv',
      headers: await t.adminHeaders(),
      payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
  });
});

describe('POST admin/send_tweet_rate', () => {
  it("records today's naira cash rates as the tweet when no Twitter credentials are set", async () => {
    await t.createRate({
      market: 'black_market_cash',
      asset: 'dollar',
      base: 'naira',
      buy: 1500,
      sell: 1520.5,
    });
    await t.createRate({
      market: 'black_market_cash',
      asset: 'british_pounds',
      base: 'naira',
      buy: 1990,
      sell: 2010,
    });
    await t.createRate({ market: 'black_market_cash', asset: 'dollar', base: 'rand', buy: 17.2, sell: 17.5 });

    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/send_tweet_rate',
      headers: await t.adminHeaders(),
    });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({
      data: null,
      message:
        'The rates tweet was recorded but will not be posted: no Twitter credentials are set (TWITTER_* in .env).',
    });

    const [tweet] = await t.runtime.database.db
      .select()
      .from(rateTweets)
      .orderBy(desc(rateTweets.createdAt))
      .limit(1);
    expect(tweet!.tweetId).toBeNull();
    expect(tweet!.text).toContain('USD: buy ₦1,500.00 / sell ₦1,520.50');
    expect(tweet!.text).toContain('GBP: buy ₦1,990.00 / sell ₦2,010.00');
    expect(tweet!.text).not.toContain('17.20');
    expect(tweet!.text.length).toBeLessThanOrEqual(280);
  });
});

describe('rate job calls without an admin token', () => {
  it.each([
    ['/v1/admin/export_rate_to_csv', { email: 'ops@example.com' }],
    ['/v1/admin/send_tweet_rate', undefined],
  ])('POST %s without a token is 401', async (url, payload) => {
    const res = await t.app.inject({ method: 'POST', url, payload });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('Authentication required.');
  });
});

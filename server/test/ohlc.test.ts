// Candles and exports: GET /v1/rates/ohlc, history and candles as CSV and NDJSON, and the
// site's key-less copies. Entries are seeded with the times they were made at, so buckets and UTC midnights are
// exact.
import { eq, sql } from 'drizzle-orm';
import { rates, requestLogs } from '../src/db/schema';
import { paidClient, subscriptionRow } from './support/paid-api';
import { createTestApp, eventually, type TestApp } from './support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ REQUEST_LOG_FLUSH_MS: '50' });
  await t.runtime.database.db.insert(rates).values([
    // The ISO week of Monday 2026-11-02: five entries, the last in Sunday's final second.
    entry('bank', 'dollar', '2026-11-02T08:00:00Z', 1450.5, 1470.25),
    entry('bank', 'dollar', '2026-11-02T16:00:00Z', 1462.75, 1480),
    entry('bank', 'dollar', '2026-11-04T09:30:00Z', 1441.125, 1466.5),
    entry('bank', 'dollar', '2026-11-06T12:00:00Z', 1455, 1483.4),
    entry('bank', 'dollar', '2026-11-08T23:59:59Z', 1458.2, 1475.6),
    // Monday midnight starts the next week.
    entry('bank', 'dollar', '2026-11-09T00:00:00Z', 1470, 1490),
    // Cash euro: two entries late on 2 November, one just after midnight, none on the 4th.
    entry('black_market_cash', 'euro', '2026-11-02T22:00:00Z', 1600, 1650),
    entry('black_market_cash', 'euro', '2026-11-02T23:59:00Z', 1610, 1655),
    entry('black_market_cash', 'euro', '2026-11-03T00:01:00Z', 1590, 1640),
    entry('black_market_cash', 'euro', '2026-11-05T10:00:00Z', 1620, 1670),
  ]);
});
afterAll(() => t.close());

function entry(
  market: 'bank' | 'black_market_cash',
  asset: 'dollar' | 'euro',
  at: string,
  buy: number,
  sell: number,
) {
  return {
    market,
    asset,
    base: 'naira' as const,
    buy,
    sell,
    createdAt: new Date(at),
    updatedAt: new Date(at),
  };
}

const weekOfNovember2 = {
  start: '2026-11-02',
  buyOpen: 1450.5,
  buyHigh: 1462.75,
  buyLow: 1441.125,
  buyClose: 1458.2,
  sellOpen: 1470.25,
  sellHigh: 1483.4,
  sellLow: 1466.5,
  sellClose: 1475.6,
  entries: 5,
};
const weekOfNovember9 = {
  start: '2026-11-09',
  buyOpen: 1470,
  buyHigh: 1470,
  buyLow: 1470,
  buyClose: 1470,
  sellOpen: 1490,
  sellHigh: 1490,
  sellLow: 1490,
  sellClose: 1490,
  entries: 1,
};

const weeks =
  '/v1/rates/ohlc?market=bank&base=naira&asset=dollar&interval=week&from=2026-10-28&to=2026-11-10';
const days =
  '/v1/rates/ohlc?market=black_market_cash&base=naira&asset=euro&interval=day&from=2026-11-02&to=2026-11-05';

async function get(url: string, headers: Record<string, string> = {}) {
  const client = await paidClient(t);
  return t.app.inject({ method: 'GET', url, headers: { ...client.headers, ...headers } });
}

/** CSV rows back to objects: the header names the fields, every other column is a number. */
function parseCsv(body: string) {
  const [header, ...lines] = body.trimEnd().split('\n');
  const names = header!.split(',');
  return lines.map((line) =>
    Object.fromEntries(
      line.split(',').map((value, i) => [names[i], i === 0 ? value : Number(value)] as [string, unknown]),
    ),
  );
}

const parseNdjson = (body: string) =>
  body
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as unknown);

describe('GET /v1/rates/ohlc', () => {
  it("makes a week's candle from every entry of the ISO week, and leaves empty weeks out", async () => {
    const res = await get(weeks);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      message: 'Candles fetched.',
      data: {
        market: 'bank',
        base: 'naira',
        asset: 'dollar',
        interval: 'week',
        // Widened to whole weeks: Monday 26 October (no entries, so no candle) to Sunday 15 November.
        from: '2026-10-26',
        to: '2026-11-15',
        candles: [weekOfNovember2, weekOfNovember9],
      },
    });
  });

  it('cuts day candles at UTC midnight and invents nothing for a day without entries', async () => {
    const res = await get(days);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.candles).toEqual([
      {
        start: '2026-11-02',
        buyOpen: 1600,
        buyHigh: 1610,
        buyLow: 1600,
        buyClose: 1610,
        sellOpen: 1650,
        sellHigh: 1655,
        sellLow: 1650,
        sellClose: 1655,
        entries: 2,
      },
      {
        start: '2026-11-03',
        buyOpen: 1590,
        buyHigh: 1590,
        buyLow: 1590,
        buyClose: 1590,
        sellOpen: 1640,
        sellHigh: 1640,
        sellLow: 1640,
        sellClose: 1640,
        entries: 1,
      },
      {
        start: '2026-11-05',
        buyOpen: 1620,
        buyHigh: 1620,
        buyLow: 1620,
        buyClose: 1620,
        sellOpen: 1670,
        sellHigh: 1670,
        sellLow: 1670,
        sellClose: 1670,
        entries: 1,
      },
    ]);
  });

  it("makes a month's candle from both weeks, from the month's first day to its last", async () => {
    const res = await get(
      '/v1/rates/ohlc?market=bank&base=naira&asset=dollar&interval=month&from=2026-11-05&to=2026-11-06',
    );
    expect(res.json().data).toMatchObject({
      from: '2026-11-01',
      to: '2026-11-30',
      candles: [
        {
          start: '2026-11-01',
          buyOpen: 1450.5,
          buyHigh: 1470,
          buyLow: 1441.125,
          buyClose: 1470,
          sellOpen: 1470.25,
          sellHigh: 1490,
          sellLow: 1466.5,
          sellClose: 1490,
          entries: 6,
        },
      ],
    });
  });

  it('reads long ranges window by window and still answers every bucket once', async () => {
    const res = await get(
      '/v1/rates/ohlc?market=bank&base=naira&asset=dollar&interval=day&from=2025-11-12&to=2026-11-12',
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().data.candles.map((c: { start: string }) => c.start)).toEqual([
      '2026-11-02',
      '2026-11-04',
      '2026-11-06',
      '2026-11-08',
      '2026-11-09',
    ]);
  });

  const bad = [
    ['/v1/rates/ohlc?market=bank&base=naira&asset=dollar', 'interval'],
    ['/v1/rates/ohlc?market=bank&base=naira&asset=dollar&interval=hour', 'interval'],
    ['/v1/rates/ohlc?market=bank&base=naira&interval=day', 'asset'],
    ['/v1/rates/ohlc?market=bank&base=naira&asset=dollar&interval=day&from=2026-02-30', 'from'],
    ['/v1/rates/ohlc?market=bank&base=naira&asset=dollar&interval=day&to=soon', 'to'],
    [
      '/v1/rates/ohlc?market=bank&base=naira&asset=dollar&interval=day&from=2026-11-09&to=2026-11-02',
      'The from date must not be after the to date.',
    ],
    [
      '/v1/rates/ohlc?market=bank&base=naira&asset=dollar&interval=day&from=2025-11-01&to=2026-11-09',
      'at most 366 days',
    ],
    [
      '/v1/rates/ohlc?market=bank&base=naira&asset=dollar&interval=week&from=2020-01-01&to=2026-11-09',
      'at most 1098 days',
    ],
    ['/v1/rates/ohlc?market=bank&base=naira&asset=dollar&interval=day&format=xml', 'format'],
  ] as const;

  it.each(bad)('%s is a 400 saying what is wrong', async (url, words) => {
    const res = await get(url);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(words);
  });

  it('takes ten years of month candles, a span refused for days', async () => {
    const res = await get(
      '/v1/rates/ohlc?market=bank&base=naira&asset=dollar&interval=month&from=2017-01-01&to=2026-11-30',
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().data.candles).toHaveLength(1);
  });
});

describe('CSV and NDJSON answers', () => {
  it('streams candles as CSV that parses back to the JSON values', async () => {
    const json = (await get(weeks)).json().data.candles;
    const res = await get(`${weeks}&format=csv`, { origin: 'https://dashboard.example.com' });
    expect(res.statusCode).toBe(200);
    // A browser app may read the file name too.
    expect(res.headers['access-control-expose-headers']).toContain('Content-Disposition');
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="afrofx-ohlc-bank-naira-dollar-week-2026-10-26-2026-11-15.csv"',
    );
    expect(res.body.split('\n')[0]).toBe(
      'start,buyOpen,buyHigh,buyLow,buyClose,sellOpen,sellHigh,sellLow,sellClose,entries',
    );
    expect(parseCsv(res.body)).toEqual(json);
    expect(json).toEqual([weekOfNovember2, weekOfNovember9]);
  });

  it('streams candles as NDJSON, one object per line, equal to the JSON values', async () => {
    const json = (await get(days)).json().data.candles;
    const res = await get(`${days}&format=ndjson`);
    expect(res.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(res.body.endsWith('\n')).toBe(true);
    expect(parseNdjson(res.body)).toEqual(json);
    expect(json).toHaveLength(3);
  });

  it('picks the format from the Accept header when no format is named', async () => {
    const csv = await get(weeks, { accept: 'text/csv' });
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(parseCsv(csv.body)).toEqual([weekOfNovember2, weekOfNovember9]);

    const ndjson = await get(weeks, { accept: 'application/x-ndjson, application/json;q=0.5' });
    expect(ndjson.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(parseNdjson(ndjson.body)).toEqual([weekOfNovember2, weekOfNovember9]);

    const named = await get(`${weeks}&format=json`, { accept: 'text/csv' });
    expect(named.json().data.candles).toEqual([weekOfNovember2, weekOfNovember9]);
  });

  it('exports history, the last entry of each day, in all three formats alike', async () => {
    const url = '/v1/rates/history?market=bank&base=naira&asset=dollar&from=2026-11-01&to=2026-11-09';
    const points = [
      { day: '2026-11-02', buy: 1462.75, sell: 1480 },
      { day: '2026-11-04', buy: 1441.125, sell: 1466.5 },
      { day: '2026-11-06', buy: 1455, sell: 1483.4 },
      { day: '2026-11-08', buy: 1458.2, sell: 1475.6 },
      { day: '2026-11-09', buy: 1470, sell: 1490 },
    ];
    expect((await get(url)).json().data.points).toEqual(points);
    const csv = await get(url, { accept: 'text/csv' });
    expect(csv.body.split('\n')[0]).toBe('day,buy,sell');
    expect(parseCsv(csv.body)).toEqual(points);
    expect(parseNdjson((await get(`${url}&format=ndjson`)).body)).toEqual(points);
  });

  it('answers the header row alone, or nothing in NDJSON, for a range without entries', async () => {
    const pair = '/v1/rates/ohlc?market=bank&base=rand&asset=dollar&interval=day';
    const csv = await get(`${pair}&format=csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toBe(
      'start,buyOpen,buyHigh,buyLow,buyClose,sellOpen,sellHigh,sellLow,sellClose,entries\n',
    );
    const ndjson = await get(`${pair}&format=ndjson`);
    expect(ndjson.statusCode).toBe(200);
    expect(ndjson.body).toBe('');
  });
});

describe('charging and logging a streamed answer', () => {
  async function logRows(appId: string) {
    return t.runtime.database.db
      .select({ status: requestLogs.status, count: requestLogs.count })
      .from(requestLogs)
      .where(eq(requestLogs.appId, appId));
  }

  it('charges a CSV export once and logs it once', async () => {
    const client = await paidClient(t, { limit: 10, processed: 0 });
    const res = await t.app.inject({ method: 'GET', url: `${weeks}&format=csv`, headers: client.headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['ratelimit-remaining']).toBe('9');
    await eventually(async () => expect(await logRows(client.appId)).toEqual([{ status: 200, count: 1 }]));
    await eventually(async () =>
      expect((await subscriptionRow(t, client.subscriptionId!)).processedRequests).toBe(1),
    );
  });

  it('does not charge an export whose query fails, and logs it as the 500 it is', async () => {
    const client = await paidClient(t, { limit: 10, processed: 0 });
    const db = t.runtime.database.db;
    await db.execute(sql`ALTER VIEW served_rates RENAME TO served_rates_away`);
    let statuses: number[];
    try {
      statuses = await Promise.all(
        [`${weeks}&format=csv`, `${days}&format=ndjson`].map(async (url) => {
          const res = await t.app.inject({ method: 'GET', url, headers: client.headers });
          return res.statusCode;
        }),
      );
    } finally {
      await db.execute(sql`ALTER VIEW served_rates_away RENAME TO served_rates`);
    }
    expect(statuses).toEqual([500, 500]);
    await eventually(async () =>
      expect(await logRows(client.appId)).toEqual([
        { status: 500, count: 1 },
        { status: 500, count: 1 },
      ]),
    );
    const next = await t.app.inject({ method: 'GET', url: weeks, headers: client.headers });
    expect(next.headers['ratelimit-remaining']).toBe('9');
  });
  // The ordering below is the embedded database's (one transaction at a time, in order); a server runs them at once.
  const itEmbedded = process.env.DATABASE_URL ? it.skip : it;
  itEmbedded(
    'cuts off an export whose database fails part-way, logs it as 500 and gives its count back',
    async () => {
      const client = await paidClient(t, { limit: 10, processed: 0 });
      // Two windows of days: 9 October to 8 November holds the week of 2 November, the second window 9 November.
      const url =
        '/v1/rates/ohlc?market=bank&base=naira&asset=dollar&interval=day&from=2026-10-09&to=2026-11-10&format=ndjson';
      const db = t.runtime.database.db;
      // Warm the key cache and the rates snapshot: the export's window queries are then its only reads.
      expect(
        (await t.app.inject({ method: 'GET', url: '/v1/rates', headers: client.headers })).statusCode,
      ).toBe(200);
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as { port: number };

      // The embedded database runs one transaction at a time, in the order asked: hold it, let the export queue its
      // first window, then queue the table's removal, so it runs after the first window and before the second.
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let held!: () => void;
      const holding = new Promise<void>((resolve) => (held = resolve));
      const holder = db.transaction(async () => {
        held();
        await released;
      });
      await holding;
      // The removal is queued once the export has asked for its first window (a read of the served rates), not after
      // a fixed wait, which a busy machine can outlast.
      const pglite = t.runtime.database.pglite!;
      const query = pglite.query.bind(pglite);
      let windowAsked!: () => void;
      const firstWindow = new Promise<void>((resolve) => (windowAsked = resolve));
      pglite.query = ((text: string, ...rest: unknown[]) => {
        if (/from "served_rates"/i.test(text)) windowAsked();
        return (query as (...args: unknown[]) => unknown)(text, ...rest);
      }) as typeof pglite.query;
      const answer = fetch(`http://127.0.0.1:${port}${url}`, { headers: client.headers }).then(
        async (res) => ({
          status: res.status,
          body: await res.text().catch((err: unknown) => err),
        }),
      );
      await firstWindow;
      pglite.query = query;
      const removal = db.execute(sql`ALTER VIEW served_rates RENAME TO served_rates_away`);
      release();
      await holder;
      let outcome: { status: number; body: unknown };
      try {
        await removal;
        outcome = await answer;
      } finally {
        await db.execute(sql`ALTER VIEW served_rates_away RENAME TO served_rates`);
      }

      // The first window went out before the second failed: a 200 whose body breaks off.
      expect(outcome.status).toBe(200);
      // (undici's error for a body cut off by the server; its class is of another realm than jest's.)
      expect(outcome.body).toMatchObject({ message: 'terminated' });
      await eventually(async () =>
        expect(await logRows(client.appId)).toEqual(
          expect.arrayContaining([
            { status: 200, count: 1 },
            { status: 500, count: 1 },
          ]),
        ),
      );
      expect(await logRows(client.appId)).toHaveLength(2);
      // Only the warm-up request counts.
      const next = await t.app.inject({ method: 'GET', url: weeks, headers: client.headers });
      expect(next.headers['ratelimit-remaining']).toBe('8');
      await eventually(async () =>
        expect((await subscriptionRow(t, client.subscriptionId!)).processedRequests).toBe(2),
      );
    },
  );
});

describe("the site's key-less history and candles", () => {
  it('answers the same candles and history as the paid API, without a key', async () => {
    const paid = (await get(weeks)).json().data;
    const site = await t.app.inject({ method: 'GET', url: weeks.replace('/v1/rates/', '/v1/user/rates/') });
    expect(site.statusCode).toBe(200);
    expect(site.json().data).toEqual(paid);
    const history = await t.app.inject({
      method: 'GET',
      url: '/v1/user/rates/history?market=black_market_cash&base=naira&asset=euro&from=2026-11-02&to=2026-11-05',
    });
    expect(history.json().data.points).toEqual([
      { day: '2026-11-02', buy: 1610, sell: 1655 },
      { day: '2026-11-03', buy: 1590, sell: 1640 },
      { day: '2026-11-05', buy: 1620, sell: 1670 },
    ]);
  });

  it('offers JSON only, and refuses bad ranges like the paid API', async () => {
    const csv = await t.app.inject({
      method: 'GET',
      url: `${days.replace('/v1/rates/', '/v1/user/rates/')}&format=csv`,
    });
    expect(csv.statusCode).toBe(400);
    const reversed = await t.app.inject({
      method: 'GET',
      url: '/v1/user/rates/history?market=bank&base=naira&asset=dollar&from=2026-11-09&to=2026-11-02',
    });
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().message).toBe('The from date must not be after the to date.');
  });

  it('limits one client to 60 calls a minute', async () => {
    const url = '/v1/user/rates/history?market=bank&base=naira&asset=dollar';
    const headers = { 'x-forwarded-for': '203.0.113.7' };
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) {
      statuses.push(
        (await t.app.inject({ method: 'GET', url, headers, remoteAddress: '203.0.113.7' })).statusCode,
      );
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(60);
    expect(statuses.at(-1)).toBe(429);
  });

  it('lists the new calls in the OpenAPI document with their formats', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const ohlc = doc.paths['/v1/rates/ohlc'].get;
    expect(Object.keys(ohlc.responses['200'].content)).toEqual([
      'application/json',
      'text/csv',
      'application/x-ndjson',
    ]);
    expect(ohlc.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['market', 'base', 'asset', 'interval', 'from', 'to', 'format']),
    );
    expect(ohlc.parameters.find((p: { name: string }) => p.name === 'interval')).toMatchObject({
      required: true,
      example: 'week',
    });
    expect(ohlc.responses['200'].content['text/csv'].schema.examples[0]).toMatch(/^start,buyOpen,/);
    // The site's key-less copies are console calls, documented apart from the paid API.
    const site = (await t.app.inject({ method: 'GET', url: '/v1/openapi-console.json' })).json();
    expect(site.paths['/v1/user/rates/ohlc'].get.security).toBeUndefined();
    expect(site.paths['/v1/user/rates/history'].get.description).toContain('60 requests a minute');
  });
});

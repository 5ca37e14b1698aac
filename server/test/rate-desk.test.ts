// The rate desk: a publication is one transaction, one timestamp, one change event and one rate.updated per
// endpoint, or nothing at all; every figure carries its provenance; a correction appends a revision and never
// rewrites a rate row.
import { count, eq, sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { ASSETS, BASES, MARKETS } from '@afrofx/shared';
import type { Change } from '../src/change-feed';
import { ratePublications, rates } from '../src/db/schema';
import { storeOfficialRates } from '../src/modules/official-rates/official-rates.repo';
import { paidClient, type PaidClient } from './support/paid-api';
import { startWebhookReceiver } from './support/webhook-receiver';
import { ADMIN, createTestApp, eventually, type TestApp } from './support/test-app';

let t: TestApp;
let client: PaidClient;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let secret: string;
const changes: Change[] = [];
const stripe = new Stripe('sk_test_unused');

beforeAll(async () => {
  t = await createTestApp();
  client = await paidClient(t);
  receiver = await startWebhookReceiver();
  const endpoint = await t.app.inject({
    method: 'POST',
    url: `/v1/account/webhooks/${client.appId}`,
    headers: client.headers,
    payload: { url: receiver.url, events: ['rate.updated', 'rate.corrected'] },
  });
  expect(endpoint.statusCode).toBe(201);
  secret = endpoint.json().data.secret as string;
  t.runtime.changes.subscribe((change) => changes.push(change));
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

const board = (price: (i: number) => number) =>
  MARKETS.flatMap((market) => BASES.flatMap((base) => ASSETS.map((asset) => ({ market, base, asset })))).map(
    (pair, i) => ({ ...pair, buy: price(i), sell: price(i) + 10 }),
  );
const publishRows = async (rows: object[], extra: object = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/v1/admin/rate_publications',
    headers: await t.adminHeaders(),
    payload: { rows, ...extra },
  });
const rateCount = async () => (await t.runtime.database.db.select({ n: count() }).from(rates))[0]!.n;
const publicationCount = async () =>
  (await t.runtime.database.db.select({ n: count() }).from(ratePublications))[0]!.n;
const events = () => receiver.received.map((d) => ({ ...d, event: JSON.parse(d.body) }));

describe('a publication', () => {
  it('stores 48 rows with one timestamp, one change event and one rate.updated delivery', async () => {
    const before = changes.length;
    const res = await publishRows(
      board((i) => 1000 + i),
      { source: 'desk' },
    );
    expect(res.statusCode).toBe(201);
    const { publication, rates: stored } = res.json().data;
    expect(publication).toMatchObject({ source: 'desk', publishedBy: ADMIN.email, rowCount: 48 });
    expect(stored).toHaveLength(48);
    expect(new Set(stored.map((r: { createdAt: string }) => r.createdAt))).toEqual(
      new Set([publication.publishedAt]),
    );
    expect(changes.slice(before)).toEqual([{ kind: 'rates' }]);
    const [delivery] = await eventually(async () => {
      expect(events().filter((d) => d.event.type === 'rate.updated')).toHaveLength(1);
      return events();
    });
    expect(delivery!.event.data.rates).toHaveLength(48);
    expect(delivery!.event.data.publication.id).toBe(publication._id);

    // Provenance, in the paid API's quotes and the admin list.
    const quotes = await t.app.inject({
      method: 'GET',
      url: '/v1/rates?market=bank',
      headers: client.headers,
    });
    expect(quotes.json().data[0]).toMatchObject({
      source: 'desk',
      publishedAt: publication.publishedAt,
      publicationId: publication._id,
      revision: 0,
    });
    const list = await t.app.inject({
      method: 'GET',
      url: '/v1/admin/fetch_all_rates',
      headers: await t.adminHeaders(),
    });
    expect(list.json().data[0]).toMatchObject({ source: 'desk', publishedBy: ADMIN.email });
  });

  it('with one bad row changes nothing and names the row', async () => {
    const [rowsBefore, publicationsBefore, changesBefore] = [
      await rateCount(),
      await publicationCount(),
      changes.length,
    ];
    const rows = board((i) => 1000 + i);
    rows[5] = { ...rows[5]!, buy: rows[5]!.sell, sell: rows[5]!.buy };
    const res = await publishRows(rows);
    expect(res.statusCode).toBe(400);
    expect(res.json().issues).toEqual([
      expect.objectContaining({ row: 5, code: 'buy_above_sell', field: 'buy' }),
    ]);
    expect(res.json().message).toContain('Row 6');
    expect([await rateCount(), await publicationCount(), changes.length]).toEqual([
      rowsBefore,
      publicationsBefore,
      changesBefore,
    ]);
  });

  it('flags a move beyond the setting and a distance from the official figure until the row is confirmed', async () => {
    await storeOfficialRates(t.runtime.database.db, [
      { source: 'cbn', date: '2026-11-20', base: 'naira', asset: 'euro', mid: 100, buy: null, sell: null },
    ]);
    const last = board((i) => 1000 + i).find(
      (r) => r.market === 'bank' && r.base === 'naira' && r.asset === 'dollar',
    )!;
    const moved = { ...last, buy: last.buy * 10, sell: last.sell * 10 };
    const far = { market: 'bank', base: 'naira', asset: 'euro', buy: 1003, sell: 1013 };
    const dry = await publishRows([moved, far], { dryRun: true });
    expect(dry.statusCode).toBe(200);
    expect(dry.json().data.issues.map((i: { row: number; code: string }) => [i.row, i.code])).toEqual([
      [0, 'move'],
      [0, 'move'],
      [1, 'official_distance'],
    ]);
    const rowsBefore = await rateCount();
    expect((await publishRows([moved, far])).statusCode).toBe(400);
    expect(await rateCount()).toBe(rowsBefore);
    const confirmed = await publishRows([
      { ...moved, confirmed: true },
      { ...far, confirmed: true },
    ]);
    expect(confirmed.statusCode).toBe(201);
  });

  it('from a CSV: a dry run previews the rows and the unparsed lines, a clean file publishes', async () => {
    const csv = 'market,base,asset,buy,sell\nbank,NGN,GBP,1200,1210\nbank,naira,yen,1,2\n';
    const dry = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/rate_publications/csv',
      headers: await t.adminHeaders(),
      payload: { csv, dryRun: true },
    });
    expect(dry.statusCode).toBe(200);
    expect(dry.json().data).toMatchObject({
      dryRun: true,
      lines: [2],
      unparsed: [expect.objectContaining({ line: 3, message: expect.stringContaining('Unknown asset') })],
    });
    const refused = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/rate_publications/csv',
      headers: await t.adminHeaders(),
      payload: { csv },
    });
    expect(refused.statusCode).toBe(400);
    const published = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/rate_publications/csv',
      headers: await t.adminHeaders(),
      payload: { csv: 'bank\tNGN\tGBP\t1,200\t1,210' },
    });
    expect(published.statusCode).toBe(201);
    expect(published.json().data.rates[0]).toMatchObject({
      source: 'csv',
      base: 'naira',
      asset: 'british_pounds',
    });
  });
});

describe('a correction', () => {
  it('appends a revision that every read serves, sends rate.corrected and never rewrites the rate row', async () => {
    const db = t.runtime.database.db;
    const created = await t.createRate({
      market: 'black_market_cash',
      base: 'cedis',
      asset: 'dollar',
      buy: 15.5,
      sell: 16,
    });
    const id = created.json().data._id as string;
    const rowBefore = (await db.execute(
      sql`select xmin::text as xmin, buy, sell, updated_at from rates where id = ${id}`,
    )) as unknown as { rows: unknown[] };
    const [rowsBefore] = [await rateCount()];

    const noReason = await t.app.inject({
      method: 'PUT',
      url: `/v1/admin/edit_rate/${id}`,
      headers: await t.adminHeaders(),
      payload: { market: 'black_market_cash', base: 'cedis', asset: 'dollar', buy: 15.6, sell: 16.1 },
    });
    expect(noReason.statusCode).toBe(400);
    const edited = await t.app.inject({
      method: 'PUT',
      url: `/v1/admin/edit_rate/${id}`,
      headers: await t.adminHeaders(),
      payload: {
        market: 'black_market_cash',
        base: 'cedis',
        asset: 'dollar',
        buy: 15.6,
        sell: 16.1,
        reason: 'The buy was typed from the wrong column',
      },
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().data).toMatchObject({ _id: id, buy: 15.6, sell: 16.1, revision: 1 });

    // Every read serves the new figure.
    const pair = 'market=black_market_cash&base=GHS&asset=USD';
    const quote = await t.app.inject({ method: 'GET', url: `/v1/rates?${pair}`, headers: client.headers });
    expect(quote.json().data[0]).toMatchObject({ _id: id, buy: 15.6, sell: 16.1 });
    const history = await t.app.inject({
      method: 'GET',
      url: `/v1/rates/history?${pair}`,
      headers: client.headers,
    });
    expect(history.json().data.points.at(-1)).toMatchObject({ buy: 15.6, sell: 16.1 });
    const ohlc = await t.app.inject({
      method: 'GET',
      url: `/v1/rates/ohlc?${pair}&interval=day`,
      headers: client.headers,
    });
    expect(ohlc.json().data.candles.at(-1)).toMatchObject({ buyClose: 15.6, sellClose: 16.1 });
    const site = await t.app.inject({ method: 'GET', url: '/v1/user/fetch_rates/black_market_cash' });
    expect(site.json().data.find((r: { _id: string }) => r._id === id)).toMatchObject({ buy: 15.6 });
    const { csv } = await t.runtime.services.ratesCsv.csv();
    let text = '';
    for await (const chunk of csv) text += String(chunk);
    const line = text.split('\n').find((l) => l.startsWith(id))!;
    expect(line).toContain(',15.6,16.1,');

    // Both values in the revisions.
    const revisions = await t.app.inject({
      method: 'GET',
      url: `/v1/rates/revisions?${pair}`,
      headers: client.headers,
    });
    expect(revisions.statusCode).toBe(200);
    expect(revisions.json().data[0]).toMatchObject({
      rateId: id,
      revision: 1,
      kind: 'correction',
      old: { buy: 15.5, sell: 16 },
      new: { buy: 15.6, sell: 16.1 },
      reason: 'The buy was typed from the wrong column',
    });

    // rate.corrected, verified with Stripe's library.
    const corrected = await eventually(async () => {
      const found = events().find((d) => d.event.type === 'rate.corrected');
      expect(found).toBeDefined();
      return found!;
    });
    expect(stripe.webhooks.constructEvent(corrected.body, corrected.signature, secret, 300)).toMatchObject({
      type: 'rate.corrected',
    });
    expect(corrected.event.data.revision).toMatchObject({ old: { buy: 15.5 }, new: { buy: 15.6 } });

    // The audit trail names the admin and the reason.
    const activity = await t.app.inject({
      method: 'GET',
      url: '/v1/admin/activity?kind=rates',
      headers: await t.adminHeaders(),
    });
    expect(activity.json().data[0]).toMatchObject({
      admin: ADMIN.email,
      action: 'correct',
      target: id,
      reason: 'The buy was typed from the wrong column',
      before: { buy: 15.5, sell: 16 },
      after: { buy: 15.6, sell: 16.1 },
    });

    // Withdrawing hides the record from reads and keeps it.
    const withdrawn = await t.app.inject({
      method: 'DELETE',
      url: `/v1/admin/delete_rate/${id}?reason=${encodeURIComponent('Published twice')}`,
      headers: await t.adminHeaders(),
    });
    expect(withdrawn.statusCode).toBe(200);
    const after = await t.app.inject({ method: 'GET', url: `/v1/rates?${pair}`, headers: client.headers });
    expect(after.json().data.map((r: { _id: string }) => r._id)).not.toContain(id);

    // The database shows the rate row as first written: never updated in place, never deleted.
    expect(await rateCount()).toBe(rowsBefore);
    expect(
      (
        (await db.execute(
          sql`select xmin::text as xmin, buy, sell, updated_at from rates where id = ${id}`,
        )) as unknown as { rows: unknown[] }
      ).rows,
    ).toEqual(rowBefore.rows);
    await expect(db.execute(sql`update admin_activity set reason = 'x'`)).rejects.toThrow();
    await expect(db.execute(sql`delete from rate_revisions`)).rejects.toThrow();
    expect((await db.select().from(rates).where(eq(rates.id, id)))[0]).toMatchObject({ buy: 15.5, sell: 16 });
  });
});

describe('the audit trail', () => {
  it('records settings with before and after, filters by admin and kind, and no route changes or deletes it', async () => {
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/v1/admin/settings',
      headers: await t.adminHeaders(),
      payload: { deskMovePercent: 25 },
    });
    expect(saved.statusCode).toBe(200);
    const res = await eventually(async () => {
      const r = await t.app.inject({
        method: 'GET',
        url: `/v1/admin/activity?kind=settings&admin=${encodeURIComponent(ADMIN.email)}`,
        headers: await t.adminHeaders(),
      });
      expect(r.json().data).toHaveLength(1);
      return r;
    });
    expect(res.json().data[0]).toMatchObject({
      kind: 'settings',
      before: expect.objectContaining({ deskMovePercent: 20 }),
      after: expect.objectContaining({ deskMovePercent: 25 }),
    });
    const nobody = await t.app.inject({
      method: 'GET',
      url: '/v1/admin/activity?admin=nobody@example.com',
      headers: await t.adminHeaders(),
    });
    expect(nobody.json().data).toEqual([]);

    // The route table: the trail has one route, a GET.
    const printed = t.app.printRoutes({ commonPrefix: false });
    const activityRoutes = printed.split('\n').filter((line) => line.includes('activity'));
    expect(activityRoutes.length).toBeGreaterThan(0);
    for (const line of activityRoutes) expect(line).toMatch(/\((GET|HEAD)(, (GET|HEAD))*\)/);
  });
});

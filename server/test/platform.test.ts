import { createHash } from 'node:crypto';
import { brotliDecompressSync } from 'node:zlib';
import { count, eq, sql } from 'drizzle-orm';
import { ALL_ENTITLEMENTS, ASSETS, BASES, MARKETS, formatCalendarDate } from '@afrofx/shared';
import {
  accounts,
  apiKeys,
  apps,
  mailingListSubscribers,
  planFeatures,
  plans,
  rates,
  requestLogs,
  subscriptions,
  transactions,
} from '../src/db/schema';
import { DEMO_DEVELOPER, seedDemoData } from '../src/demo/seed';
import { createTestApp, redisAvailable, type TestApp } from './support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('GET health', () => {
  it('reports the database, the queue and the request log with the drivers in use', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      message: 'All systems go.',
      data: {
        status: 'ok',
        database: { ok: true, driver: process.env.DATABASE_URL ? 'postgres' : 'pglite' },
        queue: { ok: true, driver: redisAvailable ? 'bullmq' : 'inline' },
        // lastFlushAt is null until the first tick of the flush timer.
        requestLog: expect.objectContaining({ ok: true, buffered: 0, failingSince: null, dropped: 0 }),
      },
    });
  });
});

describe('GET account/fetch_plans', () => {
  const db = () => t.runtime.database.db;

  async function addPlan(name: string, amount: number, features: string[] = []) {
    const [plan] = await db()
      .insert(plans)
      .values({ name, amount, numberOfRequest: amount * 100 })
      .returning();
    for (const title of features) await db().insert(planFeatures).values({ planId: plan!.id, title });
    return plan!;
  }

  async function fetchPlans(query = '') {
    const res = await t.app.inject({ method: 'GET', url: `/v1/account/fetch_plans${query}` });
    expect(res.statusCode).toBe(200);
    return res.json() as {
      data: Array<{
        _id: string;
        name: string;
        amount: number;
        numberOfRequest: number;
        createdAt: string;
        features: Array<{ _id: string; title: string }>;
      }>;
      message: string;
      pagination: { next: number | null; count: number };
    };
  }

  beforeEach(async () => {
    await db().delete(plans);
  });

  it('answers an empty list when no plan exists', async () => {
    expect(await fetchPlans()).toEqual({
      data: [],
      message: 'Plans fetched.',
      pagination: { next: null, count: 0 },
    });
  });

  it('lists plans cheapest first, each with its features in the order they were added', async () => {
    const business = await addPlan('Business', 1200, ['Everything in Growth', 'Priority support']);
    await addPlan('Starter', 120, ['Latest rates']);
    await addPlan('Growth', 480);

    const body = await fetchPlans();
    expect(body.data.map((p) => p.name)).toEqual(['Starter', 'Growth', 'Business']);
    expect(body.data[1]!.features).toEqual([]);
    expect(body.data[2]).toEqual({
      _id: business.id,
      name: 'Business',
      amount: 1200,
      numberOfRequest: 120000,
      entitlements: ALL_ENTITLEMENTS,
      onSale: true,
      createdAt: business.createdAt.toISOString(),
      features: [
        { _id: expect.any(String), title: 'Everything in Growth' },
        { _id: expect.any(String), title: 'Priority support' },
      ],
    });
    expect(body.pagination).toEqual({ next: null, count: 3 });
  });

  it('pages 20 at a time and answers an empty page past the end', async () => {
    for (let i = 1; i <= 25; i++) await addPlan(`Plan ${i}`, i * 10, [`Feature of plan ${i}`]);

    const first = await fetchPlans();
    expect(first.data).toHaveLength(20);
    expect(first.pagination).toEqual({ next: 2, count: 25 });
    const second = await fetchPlans('?page=2');
    expect(second.data.map((p) => p.name)).toEqual(['Plan 21', 'Plan 22', 'Plan 23', 'Plan 24', 'Plan 25']);
    expect(
      second.data.every(
        (p) => p.features.length === 1 && p.features[0]!.title === `Feature of ${p.name.toLowerCase()}`,
      ),
    ).toBe(true);
    expect(second.pagination).toEqual({ next: null, count: 25 });
    expect(await fetchPlans('?page=3')).toMatchObject({ data: [], pagination: { next: null, count: 25 } });
  });

  it('rejects page=0 with 400', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/account/fetch_plans?page=0' });
    expect(res.statusCode).toBe(400);
  });
});

describe('errors', () => {
  it('answers an unknown /v1 route with the 404 envelope', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/nowhere?page=1' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: 'Route GET /v1/nowhere not found',
    });
  });

  it('answers a server failure with a generic message and no stack or SQL', async () => {
    const db = t.runtime.database.db;
    await db.execute(sql`alter view served_rates rename to served_rates_moved_away`);
    try {
      const res = await t.app.inject({ method: 'GET', url: '/v1/user/fetch_rates/bank' });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({
        statusCode: 500,
        error: 'Internal Server Error',
        message: 'Something went wrong on our side. Please try again.',
      });
    } finally {
      await db.execute(sql`alter view served_rates_moved_away rename to served_rates`);
    }
  });
});

describe('API documentation', () => {
  type Document = {
    openapi: string;
    servers: Array<{ url: string }>;
    info: { title: string; description: string };
    tags: Array<{ name: string }>;
    paths: Record<string, Record<string, { tags?: string[]; security?: unknown }>>;
    components: { securitySchemes: Record<string, unknown> };
  };
  const get = async (url: string) => {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    return res.json() as Document;
  };

  it('publishes the paid API and the status call, and no console call, in /v1/openapi.json', async () => {
    const doc = await get('/v1/openapi.json');
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: 'http://afrofx.test', 'x-internal': false }]);
    expect(doc.info.description).toContain('## Quick start');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/v1/rates',
        '/v1/rates/history',
        '/v1/convert',
        '/v1/currencies',
        '/v1/health',
      ]),
    );
    const tags = Object.values(doc.paths).flatMap((item) =>
      Object.values(item).flatMap((op) => op.tags ?? []),
    );
    expect(new Set(tags)).toEqual(new Set(['Rates API', 'Compatibility', 'Status', 'Webhooks']));
    // Of the console's paths, only an app's webhooks are documented for developers.
    expect(
      Object.keys(doc.paths).filter(
        (path) => /\/(admin|account|apps|user)\//.test(path) && !path.startsWith('/v1/account/webhooks/'),
      ),
    ).toEqual([]);
    expect(doc.paths['/v1/rates']!.get!.security).toEqual([{ apiKey: [] }]);
    expect(Object.keys(doc.components.securitySchemes)).toEqual(['apiKey', 'bearerAuth']);
    expect(doc.tags.map((tag) => tag.name)).toEqual(['Rates API', 'Compatibility', 'Status', 'Webhooks']);
  });

  it('keeps the console calls in a document of their own, without the paid API', async () => {
    const doc = await get('/v1/openapi-console.json');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/v1/user/fetch_rates/{market}',
        '/v1/user/create_email_sub',
        '/v1/user/confirmation/{id}',
        '/v1/account/fetch_plans',
        '/v1/admin/authenticate',
        '/v1/admin/create_rate',
        '/v1/admin/edit_rate/{id}',
        '/v1/admin/delete_rate/{id}',
        '/v1/admin/fetch_all_rates',
        '/v1/admin/export_rate_to_csv',
        '/v1/admin/send_tweet_rate',
        '/v1/admin/send_rate_to_mail',
        '/v1/admin/fetch_mailing_list',
        '/v1/admin/remove_email/{id}',
      ]),
    );
    expect(doc.paths['/v1/rates']).toBeUndefined();
    expect(doc.paths['/v1/health']).toBeUndefined();
    expect(doc.paths['/v1/admin/create_rate']!.post!.security).toEqual([{ bearerAuth: [] }]);
    expect(Object.keys(doc.components.securitySchemes)).toEqual(['bearerAuth']);
    for (const hidden of ['/v1/openapi.json', '/v1/openapi-console.json']) {
      expect(doc.paths[hidden]).toBeUndefined();
    }
  });

  it('serves the documentation page of the paid API, its inline script allowed by hash and nothing else', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('<title>AfroFX API documentation</title>');
    expect(res.body).toContain('name="viewport"');
    const inline = [...res.body.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
      ([, body]) => body!,
    );
    expect(inline.length).toBeGreaterThan(0);
    const csp = String(res.headers['content-security-policy']);
    const scriptSrc = /script-src ([^;]*)/.exec(csp)![1]!.split(' ');
    expect(scriptSrc).toEqual([
      "'self'",
      ...inline.map((body) => `'sha256-${createHash('sha256').update(body).digest('base64')}'`),
    ]);
    const redirect = await t.app.inject({ method: 'GET', url: '/docs' });
    expect(redirect.statusCode).toBe(301);
    expect(redirect.headers.location).toBe('/docs/');
  });

  it('sends the documentation script compressed to a browser that accepts brotli', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/docs/js/scalar.js',
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    const plain = await t.app.inject({ method: 'GET', url: '/docs/js/scalar.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(plain.body);
    expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
  });
});

describe('security headers', () => {
  it('sends the helmet headers on API answers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/health' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
  });

  it('sends none of the page headers on the paid API, which answers JSON to programs', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/rates' });
    expect(res.statusCode).toBe(401);
    expect(res.headers['content-security-policy']).toBeUndefined();
    expect(res.headers['x-frame-options']).toBeUndefined();
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('demo data', () => {
  let demo: TestApp;
  beforeAll(async () => {
    demo = await createTestApp();
  });
  afterAll(() => demo.close());

  const log = { info: () => {} };

  async function tableCounts() {
    const db = demo.runtime.database.db;
    const tables = {
      rates,
      plans,
      planFeatures,
      accounts,
      apps,
      apiKeys,
      subscriptions,
      transactions,
      requestLogs,
      mailingListSubscribers,
    };
    const counts: Record<string, number> = {};
    for (const [name, table] of Object.entries(tables)) {
      const [row] = await db.select({ value: count() }).from(table);
      counts[name] = row!.value;
    }
    return counts;
  }

  it('seeds rates, plans and a working demo developer into an empty database, once', async () => {
    const db = demo.runtime.database.db;
    const before = Date.now();
    expect(await seedDemoData(db, log)).toBe(true);
    const after = Date.now();

    // Rates for every market × base × asset, today and each of the 90 days before, with buy < sell.
    const rows = await db
      .select({
        market: rates.market,
        base: rates.base,
        asset: rates.asset,
        buy: rates.buy,
        sell: rates.sell,
        createdAt: rates.createdAt,
      })
      .from(rates);
    // The seed's today is the day of its newest entry, made at most a minute before it ran; a run across midnight
    // must not expect the other day.
    const newest = Math.max(...rows.map((r) => r.createdAt.getTime()));
    expect(newest).toBeGreaterThanOrEqual(before - 60_000);
    expect(newest).toBeLessThanOrEqual(after);
    const today = new Date(newest);
    const expectedDays = Array.from({ length: 91 }, (_, i) =>
      formatCalendarDate(new Date(today.getFullYear(), today.getMonth(), today.getDate() - i)),
    ).sort();
    for (const market of MARKETS) {
      for (const base of BASES) {
        for (const asset of ASSETS) {
          const pair = rows.filter((r) => r.market === market && r.base === base && r.asset === asset);
          expect([...new Set(pair.map((r) => formatCalendarDate(r.createdAt)))].sort()).toEqual(expectedDays);
          // Three entries on each past day (so candles are real candles), one so far today.
          expect(pair).toHaveLength(90 * 3 + 1);
        }
      }
    }
    expect(rows).toHaveLength(MARKETS.length * BASES.length * ASSETS.length * (90 * 3 + 1));
    expect(rows.filter((r) => !(r.buy > 0 && r.buy < r.sell))).toEqual([]);

    const listed = (await demo.app.inject({ method: 'GET', url: '/v1/account/fetch_plans' })).json();
    expect(listed.data.length).toBeGreaterThan(0);
    expect(listed.data.every((p: { features: unknown[] }) => p.features.length > 0)).toBe(true);
    // Each card's entitlements are what its marketing lines promise, and a free plan is on sale.
    const byName = Object.fromEntries(listed.data.map((p: { name: string }) => [p.name, p]));
    expect(byName.Free).toMatchObject({
      amount: 0,
      numberOfRequest: 1000,
      entitlements: { endpoints: ['latest'], markets: ['bank'] },
    });
    expect(byName.Starter.entitlements).toMatchObject({ endpoints: ['latest'], historyDays: 0 });
    expect(byName.Growth.entitlements).toMatchObject({
      endpoints: ['latest', 'convert', 'history'],
      historyDays: 90,
    });

    const [developer] = await db.select().from(accounts).where(eq(accounts.email, DEMO_DEVELOPER.email));
    expect(developer).toMatchObject({ role: 'developer', isActivated: true, status: 'active' });
    const [app] = await db.select().from(apps).where(eq(apps.accountId, developer!.id));
    expect(app).toBeDefined();
    expect(await db.select().from(apiKeys).where(eq(apiKeys.appId, app!.id))).toHaveLength(1);
    const [subscription] = await db.select().from(subscriptions).where(eq(subscriptions.appId, app!.id));
    expect(subscription!.status).toBe('active');
    expect(subscription!.expireAt.getTime()).toBeGreaterThan(today.getTime());
    const [logs] = await db
      .select({ value: count() })
      .from(requestLogs)
      .where(eq(requestLogs.appId, app!.id));
    expect(logs!.value).toBeGreaterThan(0);

    const seeded = await tableCounts();
    expect(await seedDemoData(db, log)).toBe(false);
    expect(await tableCounts()).toEqual(seeded);
  });

  it('starting again after every rate was deleted neither fails nor duplicates the rest', async () => {
    const db = demo.runtime.database.db;
    await seedDemoData(db, log);
    const before = await tableCounts();
    await db.delete(rates);
    await expect(seedDemoData(db, log)).resolves.toBeDefined();
    const after = await tableCounts();
    expect({ ...after, rates: 0 }).toEqual({ ...before, rates: 0 });
  });
});

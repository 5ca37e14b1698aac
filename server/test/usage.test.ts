import { desc, eq, sql } from 'drizzle-orm';
import { ALL_ENTITLEMENTS } from '@afrofx/shared';
import {
  planFeatures,
  plans,
  requestDailyCounts,
  requestLogs,
  subscriptions,
  transactions,
} from '../src/db/schema';
import { createRequestLogBuffer } from '../src/modules/paid-api/request-log-buffer';
import type { NewRequestLog } from '../src/modules/requests/requests.service';
import { developerFactory, type Developer } from './support/developers';
import { createTestApp, eventually, type TestApp } from './support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const DAY_MS = 86_400_000;

const signUpAndActivate = developerFactory(() => t, 'usage', 3);

let dev: Developer;
beforeAll(async () => {
  dev = await signUpAndActivate();
});

const get = (url: string) =>
  t.app.inject({ method: 'GET', url: `/v1/${url}`, headers: { authorization: `Bearer ${dev.token}` } });

const utcDay = (date: Date) => date.toISOString().slice(0, 10);
const startOfTodayUtc = () => new Date(`${utcDay(new Date())}T00:00:00.000Z`);

/** A moment on the UTC calendar day `daysAgo` days before today (today: a moment already past, never in the future). */
function onDay(daysAgo: number, minute = 0): Date {
  const start = startOfTodayUtc().getTime();
  if (daysAgo === 0) return new Date(Math.max(start, Date.now() - 60_000 - minute * 1000));
  return new Date(start - daysAgo * DAY_MS + 12 * 3_600_000 + minute * 60_000);
}

const logEntry = (appId: string, createdAt: Date, n = 0): NewRequestLog => ({
  appId,
  host: 'api.afrofx.test',
  agent: `agent/${n}`,
  ipAddress: `102.89.0.${n % 250}`,
  originalUrl: `/v1/rates?n=${n}`,
  status: n % 10 === 0 ? 400 : 200,
  latencyMs: 3.5 + n,
  createdAt,
});

/** Logs `count` requests for the app on the UTC day `daysAgo` days before today. */
const logsOn = (appId: string, daysAgo: number, count: number) =>
  Array.from({ length: count }, (_, i) => logEntry(appId, onDay(daysAgo, i), i));

/**
 * The node types of a query's plan, planned with sorts and sequential scans priced out: if an index can hand the
 * rows over in the asked order, the plan has no Sort node, whatever the table's size.
 */
async function planNodes(query: { toSQL(): { sql: string; params: unknown[] } }): Promise<string[]> {
  const { sql: text, params } = query.toSQL();
  const inlined = text.replace(/\$(\d+)/g, (_, n: string) => {
    const value = params[Number(n) - 1];
    return typeof value === 'number' ? String(value) : `'${String(value).replace(/'/g, "''")}'`;
  });
  const result = await t.runtime.database.db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL enable_sort = off`);
    await tx.execute(sql`SET LOCAL enable_seqscan = off`);
    return tx.execute(sql.raw(`EXPLAIN (FORMAT JSON) ${inlined}`));
  });
  const cell = (result as unknown as { rows: Array<Record<string, unknown>> }).rows[0]!['QUERY PLAN'];
  const [root] = (typeof cell === 'string' ? JSON.parse(cell) : cell) as Array<{ Plan: PlanNode }>;
  const nodes: string[] = [];
  const walk = (node: PlanNode) => {
    nodes.push(node['Node Type']);
    node.Plans?.forEach(walk);
  };
  walk(root!.Plan);
  return nodes;
}
interface PlanNode {
  'Node Type': string;
  Plans?: PlanNode[];
}

describe('GET account/app_request_analytics/{appId}', () => {
  it('counts today, the last 7 days and the last 30 days by UTC day, today included', async () => {
    const appId = await t.newApp(dev, 'Analytics');
    const other = await t.newApp(dev, 'Busy neighbour');
    await t.runtime.services.requests.record([
      ...logsOn(appId, 0, 5),
      ...logsOn(appId, 3, 4),
      ...logsOn(appId, 6, 1), // the oldest day of the week window
      ...logsOn(appId, 7, 2), // just outside it
      ...logsOn(appId, 20, 3),
      ...logsOn(appId, 29, 1), // the oldest day of the month window
      ...logsOn(appId, 30, 6), // just outside it
      ...logsOn(appId, 40, 7),
      ...logsOn(other, 0, 50),
    ]);

    const res = await get(`account/app_request_analytics/${appId}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.message).toBe('Request analytics fetched.');
    expect(body.data).toMatchObject({
      todayCount: 5,
      weekCount: 5 + 4 + 1,
      monthCount: 5 + 4 + 1 + 2 + 3 + 1,
    });

    const daily: Array<{ day: string; count: number }> = body.data.daily;
    expect(daily).toHaveLength(30);
    expect(daily.map((d) => d.day)).toEqual(
      Array.from({ length: 30 }, (_, i) => utcDay(new Date(startOfTodayUtc().getTime() - (29 - i) * DAY_MS))),
    );
    const expected = new Map([
      [0, 5],
      [3, 4],
      [6, 1],
      [7, 2],
      [20, 3],
      [29, 1],
    ]);
    daily.forEach((d, i) => expect(d.count).toBe(expected.get(29 - i) ?? 0));
  });

  it('adds later batches to the same day', async () => {
    const appId = await t.newApp(dev, 'Two batches');
    await t.runtime.services.requests.record(logsOn(appId, 0, 2));
    await t.runtime.services.requests.record([...logsOn(appId, 0, 3), ...logsOn(appId, 2, 1)]);
    const { data } = (await get(`account/app_request_analytics/${appId}`)).json();
    expect(data).toMatchObject({ todayCount: 5, weekCount: 6, monthCount: 6 });
    const rollUp = await t.runtime.database.db
      .select()
      .from(requestDailyCounts)
      .where(eq(requestDailyCounts.appId, appId));
    expect(rollUp.map((r) => r.count).sort()).toEqual([1, 5]);
  });

  it('answers zeros and 30 empty days for an app without requests', async () => {
    const appId = await t.newApp(dev, 'Quiet');
    const { data } = (await get(`account/app_request_analytics/${appId}`)).json();
    expect(data).toMatchObject({ todayCount: 0, weekCount: 0, monthCount: 0 });
    expect(data.daily).toHaveLength(30);
    expect(data.daily.every((d: { count: number }) => d.count === 0)).toBe(true);
  });
});

describe('GET account/app_request/{appId}', () => {
  let appId: string;
  beforeAll(async () => {
    appId = await t.newApp(dev, 'Request log');
    const other = await t.newApp(dev, 'Other log');
    const base = Date.now() - 3_600_000;
    // 45 requests one second apart, recorded out of order, plus another app's traffic.
    const entries = Array.from({ length: 45 }, (_, i) =>
      logEntry(appId, new Date(base + i * 1000), i),
    ).reverse();
    await t.runtime.services.requests.record([
      ...entries.slice(20),
      ...logsOn(other, 0, 30),
      ...entries.slice(0, 20),
    ]);
  });

  it('pages 20 at a time, newest first, and ends with next null', async () => {
    const seen: Array<{ createdAt: string; originalUrl: string }> = [];
    const nexts: Array<number | null> = [];
    let page: number | null = 1;
    while (page !== null) {
      const res = await get(`account/app_request/${appId}?page=${page}`);
      expect(res.statusCode).toBe(200);
      const body: {
        data: Array<{ createdAt: string; originalUrl: string }>;
        message: string;
        pagination: { next: number | null; count: number };
      } = res.json();
      expect(body.message).toBe('Requests fetched.');
      expect(body.pagination.count).toBe(45);
      expect(body.data.length).toBe(page < 3 ? 20 : 5);
      seen.push(...body.data);
      nexts.push(body.pagination.next);
      page = body.pagination.next;
    }
    expect(nexts).toEqual([2, 3, null]);
    expect(seen.map((e) => e.originalUrl)).toEqual(
      Array.from({ length: 45 }, (_, i) => `/v1/rates?n=${44 - i}`),
    );
    const times = seen.map((e) => Date.parse(e.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('shows host, agent, ipAddress, originalUrl and createdAt, plus status and latency', async () => {
    const [newest] = (await get(`account/app_request/${appId}`)).json().data;
    expect(newest).toEqual({
      _id: expect.any(String),
      host: 'api.afrofx.test',
      agent: 'agent/44',
      ipAddress: '102.89.0.44',
      originalUrl: '/v1/rates?n=44',
      status: 200,
      latency: 47.5,
      count: 1,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
  });

  it('counts a folded row of refusals once in the pages and by its number in the analytics', async () => {
    const folded = await t.newApp(dev, 'Folded log');
    await t.runtime.services.requests.record([
      ...logsOn(folded, 0, 20),
      { ...logEntry(folded, new Date(), 99), status: 402, count: 500 },
    ]);
    const first = (await get(`account/app_request/${folded}`)).json();
    expect(first.pagination).toEqual({ next: 2, count: 21, cursor: expect.any(String) });
    const second = (await get(`account/app_request/${folded}?page=2`)).json();
    expect(second.data).toHaveLength(1);
    expect(second.pagination.next).toBeNull();
    const analytics = (await get(`account/app_request_analytics/${folded}`)).json().data;
    expect(analytics.todayCount).toBe(520);
  });

  it("reads a page newest first straight from the log's (app_id, created_at, id) index, without sorting the app's log", async () => {
    const page = t.runtime.database.db
      .select()
      .from(requestLogs)
      .where(eq(requestLogs.appId, appId))
      .orderBy(desc(requestLogs.createdAt), desc(requestLogs.id))
      .limit(20);
    const nodes = await planNodes(page);
    expect(nodes).not.toContain('Sort');
    expect(nodes).not.toContain('Incremental Sort');
    expect(nodes).toContain('Index Scan');
  });

  it('keeps every field exactly as recorded: quotes, backslashes, commas, braces, NULL and non-ASCII included', async () => {
    const nasty = await t.newApp(dev, 'Nasty strings');
    const odd = ['say "hi"', 'C:\\path\\', 'a,b', '{x}', 'NULL', '', 'naïra ₦ 🚀', "it's"];
    await t.runtime.services.requests.record(
      odd.map((text, i) => ({
        ...logEntry(nasty, new Date(Date.now() - (odd.length - i) * 1000), i),
        host: text,
        agent: text,
        ipAddress: text,
        originalUrl: `/v1/rates?q=${text}`,
      })),
    );
    const { data } = (await get(`account/app_request/${nasty}`)).json();
    expect(data.map((e: { agent: string }) => e.agent)).toEqual([...odd].reverse());
    for (const entry of data) {
      expect(entry.host).toBe(entry.agent);
      expect(entry.ipAddress).toBe(entry.agent);
      expect(entry.originalUrl).toBe(`/v1/rates?q=${entry.agent}`);
    }
  });

  it('answers an empty page past the end and an empty log with next null', async () => {
    const past = (await get(`account/app_request/${appId}?page=9`)).json();
    expect(past.data).toEqual([]);
    expect(past.pagination).toEqual({ next: null, count: 45, cursor: null });
    const quiet = await t.newApp(dev, 'No traffic');
    expect((await get(`account/app_request/${quiet}`)).json()).toEqual({
      data: [],
      message: 'Requests fetched.',
      pagination: { next: null, count: 0, cursor: null },
    });
  });

  it.each(['0', '-1', 'two', '1.5'])('rejects page=%s with 400', async (page) => {
    const res = await get(`account/app_request/${appId}?page=${page}`);
    expect(res.statusCode).toBe(400);
  });
});

describe('GET account/fetch_subscription/{appId} and GET account/fetch_upcoming_subscription/{appId}', () => {
  const db = () => t.runtime.database.db;
  let planId: string;
  beforeAll(async () => {
    const [plan] = await db()
      .insert(plans)
      .values({ name: 'Growth', amount: 480, numberOfRequest: 100_000 })
      .returning();
    planId = plan!.id;
  });

  const subscription = (appId: string, values: Partial<typeof subscriptions.$inferInsert> = {}) => {
    const startsAt = new Date(Date.now() - 40 * DAY_MS);
    return {
      appId,
      planId,
      planName: 'Growth',
      status: 'active' as const,
      requestLimit: 100_000,
      processedRequests: 1234,
      startsAt,
      expireAt: new Date(startsAt.getTime() + 365 * DAY_MS),
      lastIncrement: new Date(),
      createdAt: startsAt,
      ...values,
    };
  };

  it('answers null with "No active subscription." for an app without one', async () => {
    const appId = await t.newApp(dev, 'Unsubscribed');
    expect((await get(`account/fetch_subscription/${appId}`)).json()).toEqual({
      data: null,
      message: 'No active subscription.',
    });
    expect((await get(`account/fetch_upcoming_subscription/${appId}`)).json()).toEqual({
      data: null,
      message: 'No upcoming subscription.',
    });
  });

  it('shows an active plan with its plan, app, counts and dates', async () => {
    const appId = await t.newApp(dev, 'Subscribed');
    const lastIncrement = new Date(Date.now() - 3_600_000);
    const values = subscription(appId, { lastIncrement });
    await db().insert(subscriptions).values(values);
    const res = await get(`account/fetch_subscription/${appId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: {
        _id: expect.any(String),
        plan: { _id: planId, name: 'Growth' },
        app: { _id: appId, name: 'Subscribed' },
        status: 'active',
        processedRequest: 1234,
        limit: 100_000,
        // Bought before the price was kept: the plan's price stands in.
        amount: 480,
        startsAt: values.startsAt.toISOString(),
        expireAt: values.expireAt.toISOString(),
        lastIncrement: lastIncrement.toISOString(),
        createdAt: values.createdAt.toISOString(),
      },
      message: 'Subscription fetched.',
    });
  });

  it("is 'expired' once expire_at has passed, whatever the stored status", async () => {
    const appId = await t.newApp(dev, 'Lapsed');
    await db()
      .insert(subscriptions)
      .values(
        subscription(appId, {
          startsAt: new Date(Date.now() - 400 * DAY_MS),
          expireAt: new Date(Date.now() - DAY_MS),
        }),
      );
    expect((await get(`account/fetch_subscription/${appId}`)).json().data.status).toBe('expired');
  });

  it("is 'exhausted' when processed requests reach the limit", async () => {
    const appId = await t.newApp(dev, 'Heavy user');
    await db()
      .insert(subscriptions)
      .values(subscription(appId, { requestLimit: 500, processedRequests: 500 }));
    const { data } = (await get(`account/fetch_subscription/${appId}`)).json();
    expect(data).toMatchObject({ status: 'exhausted', processedRequest: 500, limit: 500 });
  });

  it('starts each month of the term afresh: a count from an earlier month no longer exhausts the plan', async () => {
    const appId = await t.newApp(dev, 'New month');
    // Bought 40 days ago: the second month of the term began about 10 days ago; the last request was 20 days ago.
    await db()
      .insert(subscriptions)
      .values(
        subscription(appId, {
          requestLimit: 500,
          processedRequests: 500,
          lastIncrement: new Date(Date.now() - 20 * DAY_MS),
        }),
      );
    const { data } = (await get(`account/fetch_subscription/${appId}`)).json();
    expect(data).toMatchObject({ status: 'active', processedRequest: 0, limit: 500 });
  });

  it("keeps 'upcoming' plans apart: the current view shows the running plan, the upcoming view the next one", async () => {
    const appId = await t.newApp(dev, 'Renewing');
    const current = subscription(appId, { expireAt: new Date(Date.now() + 3 * DAY_MS) });
    const next = subscription(appId, {
      status: 'upcoming',
      processedRequests: 0,
      startsAt: current.expireAt,
      expireAt: new Date(current.expireAt.getTime() + 365 * DAY_MS),
      lastIncrement: null,
      createdAt: new Date(),
    });
    const [running] = await db().insert(subscriptions).values(current).returning();
    const [upcoming] = await db().insert(subscriptions).values(next).returning();

    const now = (await get(`account/fetch_subscription/${appId}`)).json().data;
    expect(now).toMatchObject({ _id: running!.id, status: 'active' });
    const res = await get(`account/fetch_upcoming_subscription/${appId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      data: {
        _id: upcoming!.id,
        status: 'upcoming',
        processedRequest: 0,
        lastIncrement: null,
        startsAt: current.expireAt.toISOString(),
      },
      message: 'Upcoming subscription fetched.',
    });
  });

  it('answers the upcoming view with null when only a running plan exists', async () => {
    const appId = await t.newApp(dev, 'Not renewing');
    await db().insert(subscriptions).values(subscription(appId));
    expect((await get(`account/fetch_upcoming_subscription/${appId}`)).json().data).toBeNull();
  });

  it('keeps showing a plan that was removed, under the name it was bought with', async () => {
    const appId = await t.newApp(dev, 'Legacy plan');
    const [gone] = await db()
      .insert(plans)
      .values({ name: 'Retired', amount: 99, numberOfRequest: 10 })
      .returning();
    await db()
      .insert(subscriptions)
      .values(subscription(appId, { planId: gone!.id, planName: 'Retired' }));
    await db().delete(plans).where(eq(plans.id, gone!.id));
    expect((await get(`account/fetch_subscription/${appId}`)).json().data.plan).toEqual({
      _id: null,
      name: 'Retired',
    });
  });
});

describe('GET account/fetch_transactions/{appId}', () => {
  const db = () => t.runtime.database.db;

  const transaction = (
    appId: string,
    planId: string | null,
    n: number,
    values: Partial<typeof transactions.$inferInsert> = {},
  ) => ({
    appId,
    accountId: dev.id,
    planId,
    currency: 'USD' as const,
    amount: 120.48,
    reference: `ref-${appId.slice(0, 8)}-${n}`,
    provider: 'sandbox',
    transactionStatus: 'successful' as const,
    confirmedStatus: true,
    createdAt: new Date(Date.now() - (100 - n) * 60_000),
    ...values,
  });

  it('lists the app transactions newest first with plan, app and user', async () => {
    const appId = await t.newApp(dev, 'Paying');
    const other = await t.newApp(dev, 'Also paying');
    const [plan] = await db()
      .insert(plans)
      .values({ name: 'Starter', amount: 120, numberOfRequest: 10_000 })
      .returning();
    await db()
      .insert(transactions)
      .values([
        transaction(appId, plan!.id, 1),
        transaction(appId, plan!.id, 2, {
          currency: 'NGN',
          amount: 176_500,
          transactionStatus: 'pending',
          confirmedStatus: false,
          isUpcoming: true,
        }),
        transaction(other, plan!.id, 3),
      ]);
    const res = await get(`account/fetch_transactions/${appId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: [
        {
          _id: expect.any(String),
          currency: 'NGN',
          amount: 176_500,
          plan: { _id: plan!.id, name: 'Starter' },
          app: { _id: appId, name: 'Paying' },
          user: { first_name: 'Ada', last_name: 'Okafor', email: dev.email },
          transactionRefrence: `ref-${appId.slice(0, 8)}-2`,
          transactionStatus: 'pending',
          confirmedStatus: false,
          isUpcoming: true,
          createdAt: expect.any(String),
        },
        expect.objectContaining({
          transactionRefrence: `ref-${appId.slice(0, 8)}-1`,
          currency: 'USD',
          amount: 120.48,
          confirmedStatus: true,
        }),
      ],
      message: 'Transactions fetched.',
      pagination: { next: null, count: 2 },
    });
  });

  it("shows plan null once the plan was deleted (SPEC §8 'Plan was removed')", async () => {
    const appId = await t.newApp(dev, 'Orphaned');
    const [plan] = await db()
      .insert(plans)
      .values({ name: 'Doomed', amount: 50, numberOfRequest: 100 })
      .returning();
    await db()
      .insert(transactions)
      .values(transaction(appId, plan!.id, 1));
    await db().delete(plans).where(eq(plans.id, plan!.id));
    const res = await get(`account/fetch_transactions/${appId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([
      expect.objectContaining({ plan: null, app: { _id: appId, name: 'Orphaned' } }),
    ]);
  });

  it('pages 20 at a time and ends', async () => {
    const appId = await t.newApp(dev, 'Many payments');
    await db()
      .insert(transactions)
      .values(Array.from({ length: 23 }, (_, n) => transaction(appId, null, n)));
    const first = (await get(`account/fetch_transactions/${appId}?page=1`)).json();
    expect(first.data).toHaveLength(20);
    expect(first.pagination).toEqual({ next: 2, count: 23 });
    expect(first.data[0].transactionRefrence).toBe(`ref-${appId.slice(0, 8)}-22`);
    const second = (await get(`account/fetch_transactions/${appId}?page=2`)).json();
    expect(second.data.map((tx: { transactionRefrence: string }) => tx.transactionRefrence)).toEqual(
      [2, 1, 0].map((n) => `ref-${appId.slice(0, 8)}-${n}`),
    );
    expect(second.pagination).toEqual({ next: null, count: 23 });
  });
});

describe('GET account/fetch_plans', () => {
  it('lists the plans with their features, cheapest first, without a session', async () => {
    const db = t.runtime.database.db;
    const [pro] = await db
      .insert(plans)
      .values({ name: 'Pro', amount: 900, numberOfRequest: 500_000 })
      .returning();
    const [lite] = await db
      .insert(plans)
      .values({ name: 'Lite', amount: 10, numberOfRequest: 1_000 })
      .returning();
    await db.insert(planFeatures).values([
      { planId: pro!.id, title: 'Priority support', createdAt: new Date(Date.now() - 2000) },
      { planId: pro!.id, title: 'History endpoint', createdAt: new Date(Date.now() - 1000) },
    ]);

    const res = await t.app.inject({ method: 'GET', url: '/v1/account/fetch_plans?page=1' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.message).toBe('Plans fetched.');
    const names: string[] = body.data.map((p: { name: string }) => p.name);
    expect(names.indexOf('Lite')).toBeLessThan(names.indexOf('Pro'));
    const amounts: number[] = body.data.map((p: { amount: number }) => p.amount);
    expect([...amounts].sort((a, b) => a - b)).toEqual(amounts);
    expect(body.data.find((p: { _id: string }) => p._id === pro!.id)).toEqual({
      _id: pro!.id,
      name: 'Pro',
      amount: 900,
      numberOfRequest: 500_000,
      entitlements: ALL_ENTITLEMENTS,
      onSale: true,
      createdAt: expect.any(String),
      features: [
        { _id: expect.any(String), title: 'Priority support' },
        { _id: expect.any(String), title: 'History endpoint' },
      ],
    });
    expect(body.data.find((p: { _id: string }) => p._id === lite!.id).features).toEqual([]);
    expect(body.pagination).toEqual({ next: null, count: body.data.length });
  });

  it('rejects page=0 with 400', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/v1/account/fetch_plans?page=0' })).statusCode).toBe(
      400,
    );
  });
});

describe('the request-log buffer', () => {
  const silent = { error: () => {} };
  const rowsOf = (appId: string) =>
    t.runtime.database.db
      .select()
      .from(requestLogs)
      .where(eq(requestLogs.appId, appId))
      .orderBy(requestLogs.id);

  it('writes a full batch without waiting for its timer, every field as pushed, and the rest on close', async () => {
    const appId = await t.newApp(dev, 'Buffered');
    const logs = createRequestLogBuffer(t.runtime.services.requests, {
      flushMs: 3_600_000,
      batchSize: 3,
      log: silent,
    });
    const start = Date.now() - 60_000;
    // Repeated values (one client's agent and host) and distinct ones (paths, addresses) side by side.
    const entries = Array.from({ length: 5 }, (_, n) => ({
      ...logEntry(appId, new Date(start + n * 1_001), n),
      host: 'api.afrofx.test',
      agent: n < 3 ? 'same-client/1.0' : `other-client/${n}`,
      latencyMs: 0.25 + n,
    }));
    try {
      for (const entry of entries.slice(0, 2)) logs.push(entry);
      expect(logs.health().buffered).toBe(2);
      logs.push(entries[2]!);
      await eventually(async () => expect(await rowsOf(appId)).toHaveLength(3));
      logs.push(entries[3]!);
      logs.push(entries[4]!);
      expect(logs.health().buffered).toBe(2);
    } finally {
      await logs.close();
    }
    const rows = await rowsOf(appId);
    expect(
      rows.map(({ appId, host, agent, ipAddress, originalUrl, status, latencyMs, count, createdAt }) => ({
        appId,
        host,
        agent,
        ipAddress,
        originalUrl,
        status,
        latencyMs,
        count,
        createdAt,
      })),
    ).toEqual(entries.map((entry) => ({ ...entry, count: 1 })));
  });

  it('writes a cut in slices, each its own write, so the embedded database never holds the loop for a whole second of entries', async () => {
    const appId = await t.newApp(dev, 'Sliced');
    const requests = t.runtime.services.requests;
    const writes: number[] = [];
    const logs = createRequestLogBuffer(
      {
        ...requests,
        record: (entries, batchId) => (writes.push(entries.length), requests.record(entries, batchId)),
      },
      { flushMs: 3_600_000, sliceSize: 2, log: silent },
    );
    const start = Date.now() - 60_000;
    try {
      for (let n = 0; n < 5; n++) logs.push(logEntry(appId, new Date(start + n), n));
      await logs.flush();
    } finally {
      await logs.close();
    }
    expect(writes).toEqual([2, 2, 1]);
    expect(await rowsOf(appId)).toHaveLength(5);
    expect(logs.health().buffered).toBe(0);
  });
});

// SPEC §2 admin Transactions and Subscriptions screens (every column), DESIGN §4 pages of 20 newest first, and a
// retired plan: its history reads 'Plan was removed' (SPEC §8) and its name may be given to a new plan.
import { subscriptions, transactions } from '../src/db/schema';
import { developerFactory, type Developer } from './support/developers';
import { createTestApp, type TestApp } from './support/test-app';

let t: TestApp;
let admin: { authorization: string };
let dev: Developer;
const signUp = developerFactory(() => t, 'admin-lists', 43);

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminHeaders();
  dev = await signUp('Ngozi', 'Bello');
});
afterAll(() => t.close());

const db = () => t.runtime.database.db;
const MINUTE = 60_000;
// Every fixture is older than the one made after it, so "newest first" has one right answer.
let clock = Date.now() - 1000 * MINUTE;
const tick = () => new Date((clock += MINUTE));

async function sold(appId: string, plan: { _id: string; name: string }, n: number) {
  const createdAt = tick();
  const [subscription] = await db()
    .insert(subscriptions)
    .values({
      appId,
      planId: plan._id,
      planName: plan.name,
      status: 'active',
      requestLimit: 1000,
      processedRequests: n,
      startsAt: createdAt,
      expireAt: new Date(createdAt.getTime() + 365 * 24 * 60 * MINUTE),
      lastIncrement: createdAt,
      createdAt,
    })
    .returning();
  await db()
    .insert(transactions)
    .values({
      appId,
      accountId: dev.id,
      planId: plan._id,
      subscriptionId: subscription!.id,
      currency: n % 2 === 0 ? 'USD' : 'NGN',
      amount: n % 2 === 0 ? 50.2 : 37148,
      reference: `afx_${String(n).padStart(24, '0')}`,
      provider: 'sandbox',
      transactionStatus: 'successful',
      confirmedStatus: true,
      createdAt,
    });
  return subscription!;
}

const list = (what: 'transactions' | 'subscriptions', page: number | string, headers = admin) =>
  t.app.inject({ method: 'GET', url: `/v1/admin/fetch_${what}?page=${page}`, headers });

describe.each(['transactions', 'subscriptions'] as const)('GET admin/fetch_%s', (what) => {
  it('refuses a developer token with 403 and no token with 401', async () => {
    const asDeveloper = await list(what, 1, { authorization: `Bearer ${dev.token}` });
    expect(asDeveloper.statusCode).toBe(403);
    expect(typeof asDeveloper.json().message).toBe('string');
    expect((await t.app.inject({ method: 'GET', url: `/v1/admin/fetch_${what}` })).statusCode).toBe(401);
  });

  it('refuses page=0 with a 400', async () => {
    expect((await list(what, 0)).statusCode).toBe(400);
  });
});

describe('admin lists of payments', () => {
  let plan: { _id: string; name: string; amount: number };
  let appIds: string[];
  const SOLD = 23;

  beforeAll(async () => {
    plan = (await t.createPlan({ name: 'Growth' })).json().data;
    appIds = [await t.newApp(dev, 'Lagos shop'), await t.newApp(dev, 'Nairobi shop')];
    for (let n = 0; n < SOLD; n++) await sold(appIds[n % 2]!, plan, n);
  });

  it('admin/fetch_transactions pages 20 newest first with every SPEC §2 column, then an empty page', async () => {
    const first = await list('transactions', 1);
    expect(first.statusCode).toBe(200);
    expect(first.json().pagination).toEqual({ next: 2, count: SOLD });
    const page1 = first.json().data;
    expect(page1).toHaveLength(20);
    // Currency, app name, amount, reference, status, user, email, created at.
    expect(page1[0]).toEqual({
      _id: expect.any(String),
      currency: 'USD',
      amount: 50.2,
      plan: { _id: plan._id, name: 'Growth' },
      app: { _id: appIds[0], name: 'Lagos shop' },
      user: { first_name: 'Ngozi', last_name: 'Bello', email: dev.email },
      transactionRefrence: `afx_${String(SOLD - 1).padStart(24, '0')}`,
      transactionStatus: 'successful',
      confirmedStatus: true,
      isUpcoming: false,
      createdAt: expect.any(String),
    });
    expect(page1[1]).toMatchObject({ currency: 'NGN', amount: 37148, app: { name: 'Nairobi shop' } });

    const second = (await list('transactions', 2)).json();
    expect(second.pagination).toEqual({ next: null, count: SOLD });
    const refs = [...page1, ...second.data].map(
      (x: { transactionRefrence: string }) => x.transactionRefrence,
    );
    expect(refs).toEqual(
      Array.from({ length: SOLD }, (_, i) => `afx_${String(SOLD - 1 - i).padStart(24, '0')}`),
    );
    const created = [...page1, ...second.data].map((x: { createdAt: string }) => Date.parse(x.createdAt));
    expect(created).toEqual([...created].sort((a, b) => b - a));

    const past = await list('transactions', 3);
    expect(past.statusCode).toBe(200);
    expect(past.json()).toMatchObject({ data: [], pagination: { next: null, count: SOLD } });
  });

  it('admin/fetch_subscriptions pages 20 newest first with every SPEC §2 column, then an empty page', async () => {
    const first = await list('subscriptions', 1);
    expect(first.statusCode).toBe(200);
    expect(first.json().pagination).toEqual({ next: 2, count: SOLD });
    const page1 = first.json().data;
    expect(page1).toHaveLength(20);
    // Plan name, app name, status, processed request, limit request, created at, last increment, expires at.
    expect(page1[0]).toEqual({
      _id: expect.any(String),
      plan: { _id: plan._id, name: 'Growth' },
      app: { _id: appIds[0], name: 'Lagos shop' },
      status: 'active',
      processedRequest: SOLD - 1,
      limit: 1000,
      amount: plan.amount,
      startsAt: expect.any(String),
      expireAt: expect.any(String),
      lastIncrement: expect.any(String),
      createdAt: expect.any(String),
    });
    expect(Date.parse(page1[0].expireAt)).toBeGreaterThan(Date.parse(page1[0].createdAt));

    const second = (await list('subscriptions', 2)).json();
    expect(second.pagination).toEqual({ next: null, count: SOLD });
    expect([...page1, ...second.data].map((x: { processedRequest: number }) => x.processedRequest)).toEqual(
      Array.from({ length: SOLD }, (_, i) => SOLD - 1 - i),
    );

    const past = await list('subscriptions', 9);
    expect(past.statusCode).toBe(200);
    expect(past.json()).toMatchObject({ data: [], pagination: { next: null, count: SOLD } });
  });
});

describe('a retired plan', () => {
  it("reads 'Plan was removed' in both admin lists (plan null; the subscription keeps its name)", async () => {
    const plan = (await t.createPlan({ name: 'Legacy' })).json().data;
    const appId = await t.newApp(dev, 'Old customer');
    const subscription = await sold(appId, plan, 99);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/v1/admin/delete_plan/${plan._id}`,
      headers: admin,
    });
    expect(removed.statusCode).toBe(200);

    const txs = (await list('transactions', 1)).json().data;
    expect(txs[0]).toMatchObject({ transactionRefrence: `afx_${String(99).padStart(24, '0')}`, plan: null });
    const subs = (await list('subscriptions', 1)).json().data;
    expect(subs[0]).toMatchObject({
      _id: subscription.id,
      plan: { _id: null, name: 'Legacy' },
      app: { name: 'Old customer' },
      status: 'active',
    });
  });

  it('leaves its name free for a new plan, while two plans on sale still cannot share one', async () => {
    const old = (await t.createPlan({ name: 'Reborn' })).json().data;
    await sold(await t.newApp(dev, 'Reborn customer'), old, 100);
    const retire = await t.app.inject({
      method: 'DELETE',
      url: `/v1/admin/delete_plan/${old._id}`,
      headers: admin,
    });
    expect(retire.statusCode).toBe(200);

    const again = await t.createPlan({ name: 'reborn' });
    expect(again.json().data._id).not.toBe(old._id);
    const twin = await t.createPlan({ name: 'REBORN' }, 409);
    expect(twin.json().message).toBe('A plan with this name already exists.');
  });
});

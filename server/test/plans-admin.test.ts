// SPEC §2 Plans screen and §7 admin plan calls; DESIGN §4: admin lists newest first, fetch_plans cheapest first.
import { eq } from 'drizzle-orm';
import { plans, subscriptions } from '../src/db/schema';
import { paidClient } from './support/paid-api';
import { createTestApp, type TestApp } from './support/test-app';

let t: TestApp;
let auth: { authorization: string };

beforeAll(async () => {
  t = await createTestApp();
  auth = await t.adminHeaders();
});
afterAll(() => t.close());

async function adminPlans(page = 1) {
  const res = await t.app.inject({ method: 'GET', url: `/v1/admin/plans?page=${page}`, headers: auth });
  expect(res.statusCode).toBe(200);
  return res.json() as {
    data: Array<{ _id: string; name: string; features: unknown[] }>;
    pagination: { next: number | null };
  };
}

async function publicPlans() {
  const res = await t.app.inject({ method: 'GET', url: '/v1/account/fetch_plans?page=1' });
  expect(res.statusCode).toBe(200);
  return res.json().data as Array<{ _id: string; name: string; amount: number }>;
}

describe('admin plan calls need an admin', () => {
  it.each([
    ['GET', '/v1/admin/plans'],
    ['POST', '/v1/admin/create_plan'],
    ['PUT', '/v1/admin/edit_plan/00000000-0000-4000-8000-000000000000'],
    ['PUT', '/v1/admin/add_features_to_plan/00000000-0000-4000-8000-000000000000'],
    [
      'DELETE',
      '/v1/admin/00000000-0000-4000-8000-000000000000/remove_feature_from_plan/00000000-0000-4000-8000-000000000000',
    ],
    ['DELETE', '/v1/admin/delete_plan/00000000-0000-4000-8000-000000000000'],
  ] as const)('%s %s without a token is a 401', async (method, url) => {
    const res = await t.app.inject({ method, url, payload: method === 'GET' ? undefined : {} });
    expect(res.statusCode).toBe(401);
  });
});

describe('POST admin/create_plan', () => {
  it('creates a plan that goes on sale', async () => {
    const plan = (await t.createPlan({ name: 'Starter create', amount: 19.99, numberOfRequest: 5000 })).json()
      .data;
    expect(plan).toMatchObject({ name: 'Starter create', amount: 19.99, onSale: true, features: [] });
    expect((await publicPlans()).map((p) => p._id)).toContain(plan._id);
  });

  it('keeps a new plan a draft, off sale and not for sale, until an admin puts it on sale', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/create_plan',
      headers: auth,
      payload: { name: 'Draft plan', amount: 30, numberOfRequest: 100 },
    });
    const draft = res.json().data as { _id: string; onSale: boolean };
    expect(draft.onSale).toBe(false);
    expect((await publicPlans()).map((p) => p._id)).not.toContain(draft._id);
    expect((await adminPlans()).data.map((p) => p._id)).toContain(draft._id);
    const feature = await t.app.inject({
      method: 'PUT',
      url: `/v1/admin/add_features_to_plan/${draft._id}`,
      headers: auth,
      payload: { title: 'Drafted line' },
    });
    expect(feature.statusCode).toBe(200);
    const onSale = await t.app.inject({
      method: 'PUT',
      url: `/v1/admin/edit_plan/${draft._id}`,
      headers: auth,
      payload: { name: 'Draft plan', amount: 30, numberOfRequest: 100, onSale: true },
    });
    expect(onSale.json().data).toMatchObject({ onSale: true, features: [{ title: 'Drafted line' }] });
    expect((await publicPlans()).map((p) => p._id)).toContain(draft._id);
  });

  it.each([
    ['no name', { amount: 5, numberOfRequest: 10 }],
    ['a non-numeric numberOfRequest', { name: 'X1', amount: 5, numberOfRequest: 'many' }],
    ['a fraction of a cent', { name: 'X2', amount: 1.005, numberOfRequest: 10 }],
    ['a negative amount', { name: 'X3', amount: -1, numberOfRequest: 10 }],
    [
      'entitlements that open no endpoint',
      {
        name: 'X5',
        amount: 5,
        numberOfRequest: 10,
        entitlements: { endpoints: [], historyDays: 0, markets: ['bank'], burstPerSecond: 1 },
      },
    ],
    [
      'an endpoint not known',
      {
        name: 'X6',
        amount: 5,
        numberOfRequest: 10,
        entitlements: { endpoints: ['everything'], historyDays: 0, markets: ['bank'], burstPerSecond: 1 },
      },
    ],
    ['a control character in the name', { name: 'X\u0000', amount: 5, numberOfRequest: 10 }],
    ['a smuggled field', { name: 'X4', amount: 5, numberOfRequest: 10, retiredAt: null }],
  ])('refuses %s with a 400 and a message, creating nothing', async (_case, payload) => {
    const before = (await adminPlans()).data.length;
    const res = await t.app.inject({ method: 'POST', url: '/v1/admin/create_plan', headers: auth, payload });
    expect(res.statusCode).toBe(400);
    expect(typeof res.json().message).toBe('string');
    expect((await adminPlans()).data.length).toBe(before);
  });

  it('refuses a second plan of the same name with a 409', async () => {
    await t.createPlan({ name: 'Twice' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/create_plan',
      headers: auth,
      payload: { name: 'twice', amount: 5, numberOfRequest: 10 },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('A plan with this name already exists.');
  });
});

describe('GET admin/plans and fetch_plans', () => {
  it('lists admin plans newest first and the pricing grid cheapest first', async () => {
    const dear = (await t.createPlan({ amount: 900 })).json().data;
    const cheap = (await t.createPlan({ amount: 0.5 })).json().data;
    const admin = (await adminPlans()).data.map((p) => p._id);
    expect(admin.indexOf(cheap._id)).toBeLessThan(admin.indexOf(dear._id));
    const grid = await publicPlans();
    expect(grid[0]!._id).toBe(cheap._id);
    const amounts = grid.map((p) => p.amount);
    expect(amounts).toEqual([...amounts].sort((a, b) => a - b));
  });
});

describe('plan entitlements', () => {
  const starter = { endpoints: ['latest'], historyDays: 0, markets: ['bank'], burstPerSecond: 5 };

  it('keeps the entitlements given, opens everything when none are given, and sells a free plan', async () => {
    const narrow = await t.createPlan({
      name: 'Narrow',
      amount: 0,
      numberOfRequest: 1000,
      entitlements: starter,
    });
    expect(narrow.json().data).toMatchObject({ amount: 0, entitlements: starter });
    const wide = (await t.createPlan()).json().data;
    expect((wide as unknown as { entitlements: { endpoints: string[] } }).entitlements.endpoints).toEqual([
      'latest',
      'convert',
      'history',
      'ohlc',
      'premium',
      'webhooks',
      'exports',
    ]);
    const grid = await publicPlans();
    expect(grid.find((p) => p.name === 'Narrow')).toMatchObject({ amount: 0, entitlements: starter });
  });

  it('edits the entitlements, and an edit without them keeps them', async () => {
    const plan = (await t.createPlan()).json().data;
    const edit = (payload: object) =>
      t.app.inject({ method: 'PUT', url: `/v1/admin/edit_plan/${plan._id}`, headers: auth, payload });
    const base = { name: plan.name, amount: 50, numberOfRequest: 1000 };
    expect((await edit({ ...base, entitlements: starter })).json().data.entitlements).toEqual(starter);
    expect((await edit(base)).json().data.entitlements).toEqual(starter);
  });
});

describe('PUT admin/edit_plan/{id}', () => {
  it('changes the plan', async () => {
    const plan = (await t.createPlan()).json().data;
    const res = await t.app.inject({
      method: 'PUT',
      url: `/v1/admin/edit_plan/${plan._id}`,
      headers: auth,
      payload: { name: `${plan.name} pro`, amount: 75.5, numberOfRequest: 2500 },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ name: `${plan.name} pro`, amount: 75.5, numberOfRequest: 2500 });
  });

  it('never changes a subscription already sold', async () => {
    const plan = (await t.createPlan({ numberOfRequest: 1000 })).json().data;
    const client = await paidClient(t, { limit: 1000 });
    const db = t.runtime.database.db;
    await db
      .update(subscriptions)
      .set({ planId: plan._id, planName: plan.name })
      .where(eq(subscriptions.id, client.subscriptionId!));
    const res = await t.app.inject({
      method: 'PUT',
      url: `/v1/admin/edit_plan/${plan._id}`,
      headers: auth,
      payload: { name: 'Renamed plan', amount: 1, numberOfRequest: 3 },
    });
    expect(res.statusCode).toBe(200);
    const sold = await t.runtime.services.subscriptions.current(client.appId);
    expect(sold).toMatchObject({ plan: { name: plan.name }, limit: 1000 });
  });

  it('answers 404 for an unknown plan', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/v1/admin/edit_plan/00000000-0000-4000-8000-000000000000',
      headers: auth,
      payload: { name: 'Nobody', amount: 1, numberOfRequest: 3 },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('Plan not found.');
  });
});

describe('features', () => {
  it('adds features in order and removes one', async () => {
    const plan = (await t.createPlan()).json().data;
    for (const title of ['Cash market', 'History']) {
      const res = await t.app.inject({
        method: 'PUT',
        url: `/v1/admin/add_features_to_plan/${plan._id}`,
        headers: auth,
        payload: { title },
      });
      expect(res.statusCode).toBe(200);
    }
    const [first, second] = (await adminPlans()).data.find((p) => p._id === plan._id)!.features as Array<{
      _id: string;
      title: string;
    }>;
    expect([first!.title, second!.title]).toEqual(['Cash market', 'History']);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/v1/admin/${first!._id}/remove_feature_from_plan/${plan._id}`,
      headers: auth,
    });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().data.features).toEqual([second]);
  });

  it('refuses an empty title with a 400', async () => {
    const plan = (await t.createPlan()).json().data;
    const res = await t.app.inject({
      method: 'PUT',
      url: `/v1/admin/add_features_to_plan/${plan._id}`,
      headers: auth,
      payload: { title: '' },
    });
    expect(res.statusCode).toBe(400);
  });

  it("will not remove another plan's feature", async () => {
    const a = (await t.createPlan()).json().data;
    const b = (await t.createPlan()).json().data;
    const added = await t.app.inject({
      method: 'PUT',
      url: `/v1/admin/add_features_to_plan/${a._id}`,
      headers: auth,
      payload: { title: 'Only on A' },
    });
    const featureId = added.json().data.features[0]._id as string;
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/v1/admin/${featureId}/remove_feature_from_plan/${b._id}`,
      headers: auth,
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('Feature not found.');
  });
});

describe('DELETE admin/delete_plan/{id}', () => {
  it('deletes a plan nobody bought', async () => {
    const plan = (await t.createPlan()).json().data;
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/v1/admin/delete_plan/${plan._id}`,
      headers: auth,
    });
    expect(res.statusCode).toBe(200);
    const rows = await t.runtime.database.db.select().from(plans).where(eq(plans.id, plan._id));
    expect(rows).toEqual([]);
  });

  it('retires a plan with subscriptions: off sale, its history still readable', async () => {
    const plan = (await t.createPlan({ name: 'Retiring plan' })).json().data;
    const client = await paidClient(t, { limit: 1000 });
    await t.runtime.database.db
      .update(subscriptions)
      .set({ planId: plan._id, planName: plan.name })
      .where(eq(subscriptions.id, client.subscriptionId!));

    const res = await t.app.inject({
      method: 'DELETE',
      url: `/v1/admin/delete_plan/${plan._id}`,
      headers: auth,
    });
    expect(res.statusCode).toBe(200);

    expect((await publicPlans()).map((p) => p._id)).not.toContain(plan._id);
    expect((await adminPlans()).data.map((p) => p._id)).not.toContain(plan._id);
    expect(await t.runtime.services.subscriptions.current(client.appId)).toMatchObject({
      plan: { name: 'Retiring plan' },
      status: 'active',
    });
    // Off sale means it cannot be edited or deleted again either.
    const again = await t.app.inject({
      method: 'DELETE',
      url: `/v1/admin/delete_plan/${plan._id}`,
      headers: auth,
    });
    expect(again.statusCode).toBe(404);
  });
});

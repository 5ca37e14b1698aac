// The API opens what the plan card lists (a free 403 naming the plan that opens the rest), a
// free plan is activated without a payment, and an upgrade now is charged the price less the unused term's credit.
// Plans are bought over HTTP against the sandbox provider, so the entitlements are the ones the order copied.
import { and, eq } from 'drizzle-orm';
import type { Entitlements } from '@afrofx/shared';
import { paymentOrders, rates, subscriptions } from '../src/db/schema';
import { sandboxCheckout } from './support/checkout';
import { developerFactory, type Developer } from './support/developers';
import { createListeningTestApp, eventually, type TestApp } from './support/test-app';

let t: TestApp;
let base: string;
const signUp = developerFactory(() => t, 'tiers', 87);
const DAY_MS = 86_400_000;
const today = () => new Date().toISOString().slice(0, 10);
const daysAgo = (n: number) => new Date(Date.now() - n * DAY_MS).toISOString().slice(0, 10);

type PlanName = 'Free' | 'Starter' | 'Growth' | 'Business';
const PLANS: Record<PlanName, { amount: number; numberOfRequest: number; entitlements: Entitlements }> = {
  Free: {
    amount: 0,
    numberOfRequest: 1000,
    entitlements: { endpoints: ['latest'], historyDays: 0, markets: ['bank'], burstPerSecond: 2 },
  },
  Starter: {
    amount: 120,
    numberOfRequest: 10_000,
    entitlements: {
      endpoints: ['latest'],
      historyDays: 0,
      markets: ['black_market_cash', 'bank', 'black_market_transfer'],
      burstPerSecond: 10,
    },
  },
  Growth: {
    amount: 480,
    numberOfRequest: 100_000,
    entitlements: {
      endpoints: ['latest', 'convert', 'history'],
      historyDays: 90,
      markets: ['black_market_cash', 'bank', 'black_market_transfer'],
      burstPerSecond: 25,
    },
  },
  Business: {
    amount: 1200,
    numberOfRequest: 1_000_000,
    entitlements: {
      endpoints: ['latest', 'convert', 'history', 'ohlc', 'premium', 'webhooks', 'exports'],
      historyDays: 366,
      markets: ['black_market_cash', 'bank', 'black_market_transfer'],
      burstPerSecond: 50,
    },
  },
};
const planIds = {} as Record<PlanName, string>;

beforeAll(async () => {
  ({ t, base } = await createListeningTestApp({ REQUEST_LOG_FLUSH_MS: '50' }));
  for (const [name, plan] of Object.entries(PLANS)) {
    planIds[name as PlanName] = (await t.createPlan({ name, ...plan, onSale: true })).json().data._id;
  }
  const at = new Date(Date.now() - 60_000);
  await t.runtime.database.db.insert(rates).values(
    (['bank', 'black_market_cash'] as const).map((market, i) => ({
      market,
      base: 'naira' as const,
      asset: 'dollar' as const,
      buy: 1400 + i * 100,
      sell: 1410 + i * 100,
      createdAt: at,
      updatedAt: at,
    })),
  );
});
afterAll(() => t.close());

const as = (d: Developer) => ({ authorization: `Bearer ${d.token}` });

const { initialize, pay, confirm } = sandboxCheckout(() => ({ t, base }), planIds);

/** A developer's app on `plan`, bought and paid through the sandbox, and its key's headers. */
async function buy(plan: Exclude<PlanName, 'Free'>, d?: Developer) {
  const developer = d ?? (await signUp());
  const appId = await t.newApp(developer);
  const checkout = (await initialize(developer, appId, plan)).json().data;
  await pay(checkout);
  expect((await confirm(developer, appId, plan, checkout.reference)).statusCode).toBe(200);
  const key = await t.runtime.services.apps.generateKey(appId);
  return { developer, appId, headers: { authorization: `Bearer ${key.private_key}` } };
}

const get = (url: string, headers: Record<string, string>) => t.app.inject({ method: 'GET', url, headers });
const used = async (headers: Record<string, string>) => (await get('/v1/usage', headers)).json().data.used;

describe('entitlements the API enforces', () => {
  it('opens to a Starter key what its card lists and refuses the rest with a free 403 naming the plan that opens it', async () => {
    const starter = await buy('Starter');
    expect((await get('/v1/rates', starter.headers)).statusCode).toBe(200);
    expect((await get('/v1/currencies', starter.headers)).statusCode).toBe(200);
    const before = await used(starter.headers);
    const refusals: Array<[string, RegExp]> = [
      [
        '/v1/convert?amount=100&from=dollar&to=naira',
        /^Currency conversion endpoint \(convert\) is not included in your Starter plan\. Upgrade to Growth to use it\.$/,
      ],
      [
        '/v1/rates/history?market=bank&base=naira&asset=dollar',
        /^Daily rate history \(history\) .* Upgrade to Growth/,
      ],
      [
        '/v1/rates/ohlc?market=bank&base=naira&asset=dollar&interval=day',
        /^OHLC candles \(ohlc\) .* Upgrade to Business/,
      ],
      ['/v1/rates/premium?base=naira&asset=dollar', /Upgrade to Business/],
      [
        `/v1/rates?date=${daysAgo(3)}`,
        /^History 3 days back is not included in your Starter plan\. Upgrade to Growth/,
      ],
    ];
    for (const [url, message] of refusals) {
      const res = await get(url, starter.headers);
      expect({ url, status: res.statusCode }).toEqual({ url, status: 403 });
      expect(res.json().message).toMatch(message);
    }
    // Refusals are free: the quota did not move.
    expect(await used(starter.headers)).toBe(before);
    // …and the request log has them, folded like other refusals.
    await eventually(async () => {
      const { rows } = await t.runtime.services.requests.list(starter.appId, {
        page: { page: 1, limit: 50, offset: 0 },
      });
      const refused = rows.filter((row) => row.status === 403).reduce((sum, row) => sum + row.count, 0);
      expect(refused).toBe(refusals.length);
    });
  });

  it('opens history only as deep as the plan says, and exports only to plans that open them', async () => {
    const growth = await buy('Growth');
    const history = (from: string, extra = '') =>
      get(
        `/v1/rates/history?market=bank&base=naira&asset=dollar&from=${from}&to=${today()}${extra}`,
        growth.headers,
      );
    expect((await history(daysAgo(90))).statusCode).toBe(200);
    const deep = await history(daysAgo(91));
    expect(deep.statusCode).toBe(403);
    expect(deep.json().message).toBe(
      'History 91 days back is not included in your Growth plan. Upgrade to Business to use it.',
    );
    const csv = await history(daysAgo(10), '&format=csv');
    expect(csv.statusCode).toBe(403);
    expect(csv.json().message).toMatch(/^CSV and NDJSON exports \(exports\)/);
    expect(
      (await get('/v1/convert?amount=100&from=dollar&to=naira&market=bank', growth.headers)).statusCode,
    ).toBe(200);
  });

  it('refuses webhook registration to a plan that does not open webhooks', async () => {
    const growth = await buy('Growth');
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/account/webhooks/${growth.appId}`,
      headers: as(growth.developer),
      payload: { url: 'http://127.0.0.1:9/hook', events: ['rate.updated'] },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(
      'Rate webhooks (webhooks) is not included in your Growth plan. Upgrade to Business to use it.',
    );
  });
});

describe("a plan's burst rate", () => {
  /**
   * Thirty calls of a Starter key at once (ten a second): how many got `status`. The rest got a 429 naming the plan;
   * thirty calls may straddle the turn of one second, no more, so at least one and at most `most` pass.
   */
  async function flood(headers: Record<string, string>, status: number, most: number) {
    const answers = await Promise.all(Array.from({ length: 30 }, () => get('/v1/rates', headers)));
    const passed = answers.filter((res) => res.statusCode === status).length;
    const refused = answers.filter((res) => res.statusCode === 429);
    expect(passed).toBeGreaterThanOrEqual(1);
    expect(passed).toBeLessThanOrEqual(most);
    expect(refused).toHaveLength(30 - passed);
    expect(refused[0]!.json().message).toBe(
      'Too many requests at once: your Starter plan allows 10 per second per key.',
    );
    expect(refused[0]!.headers['retry-after']).toBe('1');
    return passed;
  }

  it('is counted with the quota: calls above it get a 429 naming the plan, and nothing refused is charged', async () => {
    const starter = await buy('Starter');
    const before = await used(starter.headers);
    const served = await flood(starter.headers, 200, 20);
    // The usage call is counted against the same rate: read once the second has passed.
    await eventually(async () => expect(await used(starter.headers)).toBe(before + served));
  });

  it('counts free answers too: revalidations above it get a 429 naming the plan, and none is charged', async () => {
    const starter = await buy('Starter');
    const first = await get('/v1/rates', starter.headers);
    expect(first.statusCode).toBe(200);
    // The first answer took one of the ten.
    await flood({ ...starter.headers, 'if-none-match': first.headers.etag as string }, 304, 19);
    await eventually(async () => expect(await used(starter.headers)).toBe(1));
  });
});

describe('a free plan', () => {
  it('is activated through initialize_payment without a payment, and its key gets 200 from /v1/rates', async () => {
    const developer = await signUp();
    const appId = await t.newApp(developer);
    const res = await initialize(developer, appId, 'Free');
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toBe('The Free plan is active on this app at no charge.');
    expect(res.json().data).toMatchObject({
      activated: true,
      subscription: { plan: { name: 'Free' }, status: 'active', limit: 1000, amount: 0 },
    });
    const orders = await t.runtime.database.db
      .select()
      .from(paymentOrders)
      .where(eq(paymentOrders.appId, appId));
    expect(orders).toHaveLength(0);
    const key = await t.runtime.services.apps.generateKey(appId);
    const headers = { authorization: `Bearer ${key.private_key}` };
    const rates = await get('/v1/rates', headers);
    expect(rates.statusCode).toBe(200);
    // The bank market only, as the plan says.
    expect(new Set(rates.json().data.map((r: { market: string }) => r.market))).toEqual(new Set(['bank']));
    const cash = await get('/v1/rates?market=black_market_cash', headers);
    expect(cash.statusCode).toBe(403);
    expect(cash.json().message).toBe(
      'The Cash market (black_market_cash) is not included in your Free plan. Upgrade to Starter to use it.',
    );
    expect((await get('/v1/usage', headers)).json().data).toMatchObject({ plan: 'Free', limit: 1000 });
  });

  it('is had once per app, on one app per account, and never over a running plan', async () => {
    const developer = await signUp();
    const first = await t.newApp(developer);
    expect((await initialize(developer, first, 'Free')).statusCode).toBe(201);
    const again = await initialize(developer, first, 'Free');
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('You currently have an active plan.');
    // Ended, it is not had a second time.
    await t.runtime.database.db
      .update(subscriptions)
      .set({ expireAt: new Date(Date.now() - 1000) })
      .where(eq(subscriptions.appId, first));
    const afterEnd = await initialize(developer, first, 'Free');
    expect(afterEnd.statusCode).toBe(409);
    expect(afterEnd.json().message).toBe(
      'This app has had its free plan already. Choose a paid plan to keep calling the API.',
    );
    const second = await initialize(developer, await t.newApp(developer), 'Free');
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toBe(
      'A free plan may run on 1 app of an account, and yours has used it. Choose a paid plan for this app.',
    );
    const paid = await buy('Starter');
    const over = await initialize(paid.developer, await t.newApp(paid.developer), 'Free');
    expect(over.statusCode).toBe(201);
    const overPaid = await initialize(paid.developer, paid.appId, 'Free');
    expect(overPaid.statusCode).toBe(409);
  });
});

describe('upgrading now with a prorated credit', () => {
  async function midTermStarter() {
    const starter = await buy('Starter');
    // 100 days into a 365-day term (the term is moved back rather than the clock forward).
    const startsAt = new Date(Date.now() - 100 * DAY_MS);
    const expireAt = new Date(startsAt.getTime() + 365 * DAY_MS);
    await t.runtime.database.db
      .update(subscriptions)
      .set({ startsAt, expireAt })
      .where(eq(subscriptions.appId, starter.appId));
    return starter;
  }

  it('charges the price less the unused term, and the new plan serves at once while the old one ends', async () => {
    const starter = await midTermStarter();
    expect(
      (await get('/v1/convert?amount=1&from=dollar&to=naira&market=bank', starter.headers)).statusCode,
    ).toBe(403);
    const res = await initialize(starter.developer, starter.appId, 'Growth');
    expect(res.statusCode).toBe(201);
    const checkout = res.json().data;
    // 120 × 265/365 = 87.12 (to the cent below); 480 − 87.12 = 392.88; with the 0.4 % fee 394.45.
    expect(checkout.upgrade).toEqual({ from: 'Starter', price: 480, credit: 87.12, due: 392.88 });
    expect(checkout.amount).toBe(394.45);
    expect(checkout.isUpcoming).toBe(false);
    const [order] = await t.runtime.database.db
      .select()
      .from(paymentOrders)
      .where(eq(paymentOrders.reference, checkout.reference));
    expect(order).toMatchObject({ creditCents: 8712, planAmount: 480, amountMinor: 39445 });

    await pay(checkout);
    const confirmed = await confirm(starter.developer, starter.appId, 'Growth', checkout.reference);
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json().data.subscription).toMatchObject({ plan: { name: 'Growth' }, status: 'active' });
    // Settled again (a retried callback, the webhook, the reconcile job): applied once.
    expect((await confirm(starter.developer, starter.appId, 'Growth', checkout.reference)).statusCode).toBe(
      200,
    );
    expect(await t.runtime.services.payments.reconcile(checkout.reference)).toEqual({ kind: 'paid' });
    const rows = await t.runtime.database.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.appId, starter.appId));
    expect(rows).toHaveLength(2);
    const serving = rows.filter((row) => row.status === 'active' && row.expireAt > new Date());
    expect(serving.map((row) => row.planName)).toEqual(['Growth']);
    expect(rows.find((row) => row.planName === 'Starter')).toMatchObject({ status: 'upgraded' });
    // The new plan's entitlements and quota apply at once.
    expect(
      (await get('/v1/convert?amount=1&from=dollar&to=naira&market=bank', starter.headers)).statusCode,
    ).toBe(200);
    expect((await get('/v1/usage', starter.headers)).json().data).toMatchObject({
      plan: 'Growth',
      limit: 100_000,
    });
  });

  it('gives an NGN upgrade a receipt with the list price, the credit, the fee, the amount and the dollar rate', async () => {
    const starter = await midTermStarter();
    const payload = { plan: planIds.Growth, currency: 'NGN', isUpcoming: false };
    const checkout = (
      await t.app.inject({
        method: 'POST',
        url: `/v1/account/initialize_payment/${starter.appId}`,
        headers: as(starter.developer),
        payload,
      })
    ).json().data;
    await pay(checkout);
    const confirmed = await t.app.inject({
      method: 'POST',
      url: `/v1/account/create_transaction/${starter.appId}`,
      headers: as(starter.developer),
      payload: { ...payload, reference: checkout.reference },
    });
    expect(confirmed.statusCode).toBe(200);
    const receipt = (
      await t.app.inject({
        method: 'GET',
        url: `/v1/account/receipts/${checkout.reference}`,
        headers: as(starter.developer),
      })
    ).json().data;
    // Growth at the Cash dollar buy rate of 1,500: 480 × 1,500 = 720,000; the credit of 87.12 dollars is 130,680;
    // 392.88 dollars with the fee is 591,677.28, whole naira 591,677, of which the fee is 2,357.
    expect(receipt).toMatchObject({
      currency: 'NGN',
      amount: 591677,
      fee: 2357,
      lines: [
        { label: 'Growth plan, 12 months (list price)', amount: 720000 },
        { label: 'Credit for the unused part of the previous plan', amount: -130680 },
        { label: 'Payment fee (0.4%)', amount: 2357 },
      ],
      exchangeRate: { rate: 1500, at: expect.any(String) },
    });
  });

  it('refuses the same or a cheaper plan mid-term, and keeps the renewal window for them', async () => {
    const growth = await buy('Growth');
    for (const plan of ['Growth', 'Starter'] as const) {
      const res = await initialize(growth.developer, growth.appId, plan);
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toMatch(/only a dearer plan can replace it now/);
    }
    expect(
      await t.runtime.database.db
        .select()
        .from(paymentOrders)
        .where(and(eq(paymentOrders.appId, growth.appId), eq(paymentOrders.status, 'pending'))),
    ).toHaveLength(0);
    // In the last 5 days, the same plan is a renewal (SPEC §4's upcoming plan), not an upgrade.
    await t.runtime.database.db
      .update(subscriptions)
      .set({ expireAt: new Date(Date.now() + 2 * DAY_MS) })
      .where(eq(subscriptions.appId, growth.appId));
    const renewal = (await initialize(growth.developer, growth.appId, 'Growth')).json().data;
    expect(renewal).toMatchObject({ isUpcoming: true, amount: 481.92 });
    expect(renewal.upgrade).toBeUndefined();
  });
});

// SPEC §4, §7 and DESIGN §4 payments, end to end over HTTP against the sandbox provider the product serves itself:
// the real provider client verifies every reference over HTTP.
import { and, count, eq } from 'drizzle-orm';
import { PAYMENT_AMOUNT_MAX } from '@afrofx/shared';
import { paymentOrders, sandboxTransactions, subscriptions, transactions } from '../src/db/schema';
import { developerFactory, type Developer } from './support/developers';
import { paymentSweepJob } from '../src/jobs/payment-sweep.job';
import { createListeningTestApp, type TestApp } from './support/test-app';

let t: TestApp;
let base: string;
const signUp = developerFactory(() => t, 'payments', 41);
let dev: Developer;
let plan: { _id: string; amount: number; numberOfRequest: number; name: string };

beforeAll(async () => {
  ({ t, base } = await createListeningTestApp());
  plan = (await t.createPlan({ name: 'Growth' })).json().data;
  dev = await signUp();
});
afterAll(() => t.close());

const as = (d: Developer) => ({ authorization: `Bearer ${d.token}` });

async function initialize(appId: string, currency: 'USD' | 'NGN' = 'USD', d = dev) {
  return t.app.inject({
    method: 'POST',
    url: `/v1/account/initialize_payment/${appId}`,
    headers: as(d),
    payload: { plan: plan._id, currency, isUpcoming: false },
  });
}

/** The fake's calls on Basqet's contract (Bearer public key), as the stand-in basqet.js makes them. */
async function atProvider(path: string, publicKey: string, body: unknown) {
  const res = await fetch(`${base}/sandbox-pay/v1/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${publicKey}` },
    body: JSON.stringify(body),
  });
  expect(res.status).toBeLessThan(300);
  return ((await res.json()) as { data: { id: string; status: string } }).data;
}

/** What the stand-in modal's Pay and Decline buttons do: settle the transaction the server initialized. */
const settleAtProvider = (
  action: 'pay' | 'decline',
  checkout: { transactionId: string; publicKey: string },
) =>
  atProvider(`transaction/${checkout.transactionId}/trigger`, checkout.publicKey, {
    status: action === 'pay' ? 'SUCCESSFUL' : 'DECLINED',
  });

function createTransaction(appId: string, body: Record<string, unknown>, d = dev) {
  return t.app.inject({
    method: 'POST',
    url: `/v1/account/create_transaction/${appId}`,
    headers: as(d),
    payload: { plan: plan._id, currency: 'USD', isUpcoming: false, ...body },
  });
}

async function recorded(appId: string) {
  const db = t.runtime.database.db;
  const [[subs], [txs]] = await Promise.all([
    db.select({ n: count() }).from(subscriptions).where(eq(subscriptions.appId, appId)),
    db.select({ n: count() }).from(transactions).where(eq(transactions.appId, appId)),
  ]);
  return { subscriptions: subs!.n, transactions: txs!.n };
}

async function orderStatus(reference: string) {
  const [row] = await t.runtime.database.db
    .select({ status: paymentOrders.status })
    .from(paymentOrders)
    .where(eq(paymentOrders.reference, reference));
  return row?.status;
}

describe('POST account/initialize_payment/{appId}', () => {
  it("answers the server's USD price (fee included) and what the modal needs", async () => {
    const appId = await t.newApp(dev);
    const res = await initialize(appId);
    expect(res.statusCode).toBe(201);
    const checkout = res.json().data;
    expect(checkout).toMatchObject({
      provider: 'sandbox',
      amount: 50.2,
      currency: 'USD',
      scriptUrl: '/sandbox-pay/basqet.js',
      customer: { name: 'Ada Okafor', email: dev.email },
      plan: { _id: plan._id, name: 'Growth' },
      isUpcoming: false,
    });
    expect(checkout.reference).toMatch(/^afx_[A-Za-z0-9]{24}$/);
    expect(await orderStatus(checkout.reference)).toBe('pending');
  });

  it('prices NGN from the cash-market dollar buy rate (fallback 740 when none)', async () => {
    const appId = await t.newApp(dev);
    const res = await initialize(appId, 'NGN');
    expect(res.json().data).toMatchObject({ amount: 37148, currency: 'NGN' });
  });

  it("answers 404 for another developer's app", async () => {
    const other = await signUp('Bola', 'Ade');
    const res = await initialize(await t.newApp(dev), 'USD', other);
    expect(res.statusCode).toBe(404);
  });

  it('bounds amounts in one place: the sandbox refuses more than PAYMENT_AMOUNT_MAX, and the console document says so', async () => {
    const before = await t.runtime.database.db.select({ n: count() }).from(sandboxTransactions);
    for (const amount of ['1000000000000', '10000000000.01', '0']) {
      const res = await fetch(`${base}/sandbox-pay/v1/transaction`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${t.config.payment.publicKey}`,
        },
        body: JSON.stringify({
          customer: { name: 'Ada', email: dev.email },
          amount,
          currency: 'NGN',
          meta: { reference: `afx_${'B'.repeat(24)}` },
        }),
      });
      expect(res.status).toBe(400);
      expect(typeof ((await res.json()) as { message: string }).message).toBe('string');
    }
    expect(await t.runtime.database.db.select({ n: count() }).from(sandboxTransactions)).toEqual(before);
    const doc = (await t.app.inject({ method: 'GET', url: '/v1/openapi-console.json' })).json();
    expect(JSON.stringify(doc)).toContain(`"maximum":${PAYMENT_AMOUNT_MAX}`);
  });

  it('serves the sandbox checkout script, labelled as a test payment', async () => {
    const res = await fetch(`${base}/sandbox-pay/basqet.js`);
    expect(res.status).toBe(200);
    const script = await res.text();
    expect(script).toContain('Test payment \\u2014 no money moves');
    expect(script).toContain('window.payWithBasqet');
  });
});

describe('POST account/create_transaction/{appId}', () => {
  it('verifies the payment with the provider and adds a 12-month plan at the plan quota', async () => {
    const appId = await t.newApp(dev);
    const checkout = (await initialize(appId)).json().data;
    await settleAtProvider('pay', checkout);
    const res = await createTransaction(appId, { reference: checkout.reference, status: 'SUCCESSFUL' });
    expect(res.statusCode).toBe(200);
    const { transaction, subscription } = res.json().data;
    expect(transaction).toMatchObject({
      currency: 'USD',
      amount: 50.2,
      transactionRefrence: checkout.reference,
      transactionStatus: 'successful',
      confirmedStatus: true,
      plan: { _id: plan._id, name: 'Growth' },
    });
    expect(subscription).toMatchObject({ status: 'active', limit: 1000, plan: { name: 'Growth' } });
    const months =
      (new Date(subscription.expireAt).getUTCFullYear() - new Date(subscription.startsAt).getUTCFullYear()) *
        12 +
      new Date(subscription.expireAt).getUTCMonth() -
      new Date(subscription.startsAt).getUTCMonth();
    expect(months).toBe(12);
    expect(await orderStatus(checkout.reference)).toBe('paid');

    const list = await t.app.inject({
      method: 'GET',
      url: `/v1/account/fetch_transactions/${appId}`,
      headers: as(dev),
    });
    expect(list.json().data.map((x: { _id: string }) => x._id)).toEqual([transaction._id]);
  });

  it('answers a replay with the recorded pair, and twenty at once with the webhook make one of each', async () => {
    const appId = await t.newApp(dev);
    const checkout = (await initialize(appId)).json().data;
    await settleAtProvider('pay', checkout);
    const event = JSON.stringify({ event: 'transaction.updated', data: { id: checkout.transactionId } });
    const webhook = () =>
      t.app.inject({
        method: 'POST',
        url: '/v1/payments/basqet/webhook',
        headers: { 'content-type': 'application/json' },
        payload: event,
      });
    const answers = await Promise.all([
      ...Array.from({ length: 20 }, () => createTransaction(appId, { reference: checkout.reference })),
      webhook(),
      webhook(),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual(Array(22).fill(200));
    const ids = new Set(answers.slice(0, 20).map((a) => a.json().data.transaction._id));
    expect(ids.size).toBe(1);
    expect(await recorded(appId)).toEqual({ subscriptions: 1, transactions: 1 });
    const replay = await createTransaction(appId, { reference: checkout.reference });
    expect(replay.json().data.transaction._id).toBe([...ids][0]);
    expect(await recorded(appId)).toEqual({ subscriptions: 1, transactions: 1 });
  });

  it('records a payment from the webhook alone, when the browser never calls back', async () => {
    const appId = await t.newApp(dev);
    const checkout = (await initialize(appId)).json().data;
    // The sandbox tells this server's webhook over HTTP, as the provider does.
    await settleAtProvider('pay', checkout);
    for (let i = 0; i < 200 && (await orderStatus(checkout.reference)) !== 'paid'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(await orderStatus(checkout.reference)).toBe('paid');
    expect(await recorded(appId)).toEqual({ subscriptions: 1, transactions: 1 });
  });

  it('takes a webhook only as a hint: a forged "paid" event about an unpaid order grants nothing', async () => {
    const appId = await t.newApp(dev);
    const checkout = (await initialize(appId)).json().data;
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/payments/basqet/webhook',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({
        data: { id: checkout.transactionId, reference: checkout.reference, status: 'SUCCESSFUL' },
      }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ outcome: 'pending' });
    expect(await orderStatus(checkout.reference)).toBe('pending');
    expect(await recorded(appId)).toEqual({ subscriptions: 0, transactions: 0 });
  });

  describe('a forged or failed payment creates nothing and answers 4xx with a message', () => {
    it.each([
      ['an unknown reference', () => ({ reference: `afx_${'Z'.repeat(24)}` }), 404],
      ['a reference with ../', () => ({ reference: 'afx_../../admin/plans' }), 400],
      ['a URL for a reference', () => ({ reference: 'https://evil.example/pay' }), 400],
    ])('%s', async (_case, body, status) => {
      const appId = await t.newApp(dev);
      const res = await createTransaction(appId, body());
      expect(res.statusCode).toBe(status);
      expect(typeof res.json().message).toBe('string');
      expect(await recorded(appId)).toEqual({ subscriptions: 0, transactions: 0 });
    });

    it("another app's reference", async () => {
      const mine = await t.newApp(dev);
      const theirs = await t.newApp((await signUp('Chi', 'Eze')) as Developer);
      const other = await signUp('Dayo', 'Ola');
      const otherApp = await t.newApp(other);
      const checkout = (await initialize(otherApp, 'USD', other)).json().data;
      await settleAtProvider('pay', checkout);
      const res = await createTransaction(mine, { reference: checkout.reference });
      expect(res.statusCode).toBe(404);
      expect(await recorded(mine)).toEqual({ subscriptions: 0, transactions: 0 });
      expect(theirs).toBeDefined();
    });

    it('another currency than the order', async () => {
      const appId = await t.newApp(dev);
      const checkout = (await initialize(appId)).json().data;
      await settleAtProvider('pay', checkout);
      const res = await createTransaction(appId, { reference: checkout.reference, currency: 'NGN' });
      expect(res.statusCode).toBe(400);
      expect(await recorded(appId)).toEqual({ subscriptions: 0, transactions: 0 });
    });

    it('a payment the provider has not seen', async () => {
      const appId = await t.newApp(dev);
      const checkout = (await initialize(appId)).json().data;
      const res = await createTransaction(appId, { reference: checkout.reference, status: 'SUCCESSFUL' });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(
        'The payment provider has not confirmed this payment yet, so no plan was added.',
      );
      expect(await recorded(appId)).toEqual({ subscriptions: 0, transactions: 0 });
      expect(await orderStatus(checkout.reference)).toBe('pending');
    });

    it('a payment declined in the modal', async () => {
      const appId = await t.newApp(dev);
      const checkout = (await initialize(appId)).json().data;
      await settleAtProvider('decline', checkout);
      const res = await createTransaction(appId, { reference: checkout.reference });
      expect(res.statusCode).toBe(402);
      expect(res.json().message).toBe('The payment was not successful, so no plan was added.');
      expect(await recorded(appId)).toEqual({ subscriptions: 0, transactions: 0 });
    });

    it('a payment of 1 dollar on a transaction the browser made itself, not the one the server priced (held)', async () => {
      const appId = await t.newApp(dev);
      const checkout = (await initialize(appId)).json().data;
      const own = await atProvider('transaction', checkout.publicKey, {
        customer: checkout.customer,
        amount: '1.00',
        currency: 'USD',
        meta: { reference: checkout.reference },
      });
      await settleAtProvider('pay', { transactionId: own.id, publicKey: checkout.publicKey });
      const res = await createTransaction(appId, { reference: checkout.reference, id: own.id });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(
        'This payment is not the transaction the server started for this order.',
      );
      expect(await recorded(appId)).toEqual({ subscriptions: 0, transactions: 0 });
      // Paid, at an amount the server cannot see: held for an admin, never granted, never lost from view.
      expect(await orderStatus(checkout.reference)).toBe('held');
      const held = await t.app.inject({
        method: 'GET',
        url: '/v1/admin/held_payments',
        headers: await t.adminHeaders(),
      });
      expect(held.json().data).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            reference: checkout.reference,
            reason: expect.stringContaining(own.id) as string,
          }),
        ]),
      );
      const retry = await createTransaction(appId, { reference: checkout.reference });
      expect(retry.statusCode).toBe(409);
      expect(await recorded(appId)).toEqual({ subscriptions: 0, transactions: 0 });
    });
  });
});

describe('SPEC §4 purchase rules', () => {
  it("refuses a second plan while the current one is active for more than 5 days: 'You currently have an active plan.'", async () => {
    const appId = await t.newApp(dev);
    const checkout = (await initialize(appId)).json().data;
    await settleAtProvider('pay', checkout);
    expect((await createTransaction(appId, { reference: checkout.reference })).statusCode).toBe(200);
    const again = await initialize(appId);
    expect(again.statusCode).toBe(409);
    // The same plan is no upgrade, and the refusal says when it can be renewed.
    expect(again.json().message).toMatch(
      /^You currently have an active plan\. Your .+ plan runs until \d{4}-\d{2}-\d{2}: only a dearer plan can replace it now/,
    );
  });

  it('makes a purchase within 5 days of the end an upcoming plan that starts when the current one ends', async () => {
    const appId = await t.newApp(dev);
    const ends = new Date(Date.now() + 3 * 86_400_000);
    await t.runtime.database.db.insert(subscriptions).values({
      appId,
      planName: 'Old plan',
      status: 'active',
      requestLimit: 10,
      startsAt: new Date(Date.now() - 300 * 86_400_000),
      expireAt: ends,
    });
    const checkout = (await initialize(appId)).json().data;
    expect(checkout.isUpcoming).toBe(true);
    await settleAtProvider('pay', checkout);
    const res = await createTransaction(appId, { reference: checkout.reference, isUpcoming: true });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.subscription).toMatchObject({ status: 'upcoming', startsAt: ends.toISOString() });
    expect(res.json().data.transaction.isUpcoming).toBe(true);
    const upcoming = await t.app.inject({
      method: 'GET',
      url: `/v1/account/fetch_upcoming_subscription/${appId}`,
      headers: as(dev),
    });
    expect(upcoming.json().data).toMatchObject({ status: 'upcoming', plan: { name: 'Growth' } });
    // With an upcoming plan, nothing more can be bought.
    expect((await initialize(appId)).statusCode).toBe(409);
    const rows = await t.runtime.database.db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.appId, appId), eq(subscriptions.status, 'upcoming')));
    expect(rows).toHaveLength(1);
  });
});

describe('no stacking', () => {
  async function ordersOf(appId: string) {
    return t.runtime.database.db
      .select({ status: paymentOrders.status, reference: paymentOrders.reference })
      .from(paymentOrders)
      .where(eq(paymentOrders.appId, appId));
  }

  it('50 initializations at once on one app leave at most 1 pending order, reused for the same plan', async () => {
    const appId = await t.newApp(dev);
    const answers = await Promise.all(Array.from({ length: 50 }, () => initialize(appId)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(50).fill(201));
    const orders = await ordersOf(appId);
    expect(orders.filter((o) => o.status === 'pending')).toHaveLength(1);
    const again = (await initialize(appId)).json().data;
    expect(again.reference).toBe(orders.find((o) => o.status === 'pending')!.reference);
    // Another currency replaces it.
    const naira = (await initialize(appId, 'NGN')).json().data;
    const after = await ordersOf(appId);
    expect(after.filter((o) => o.status === 'pending').map((o) => o.reference)).toEqual([naira.reference]);
  });

  it('does not reuse a pending order the customer already declined: it is settled and a new one opened', async () => {
    const appId = await t.newApp(dev);
    const declined = (await initialize(appId)).json().data;
    await settleAtProvider('decline', declined);
    const next = (await initialize(appId)).json().data;
    expect(next.reference).not.toBe(declined.reference);
    expect(next.transactionId).not.toBe(declined.transactionId);
    expect(await orderStatus(declined.reference)).toBe('failed');
  });

  it('3 orders opened, then all paid, give 1 active plan, 1 upcoming and 1 payment held for the admin', async () => {
    const appId = await t.newApp(dev);
    const checkouts = [];
    for (const currency of ['USD', 'NGN', 'USD'] as const) {
      checkouts.push((await initialize(appId, currency)).json().data);
    }
    for (const checkout of checkouts) await settleAtProvider('pay', checkout);
    // The browser's three confirmations at once, racing the sandbox's webhooks for the same payments.
    const answers = await Promise.all(
      checkouts.map((checkout) =>
        createTransaction(appId, { reference: checkout.reference, currency: checkout.currency }),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 409]);
    const refused = answers.findIndex((a) => a.statusCode === 409);
    expect(answers[refused]!.json().message).toMatch(/already has an upcoming plan.*held/);
    const subs = await t.runtime.database.db
      .select({ status: subscriptions.status })
      .from(subscriptions)
      .where(eq(subscriptions.appId, appId));
    expect(subs.map((s) => s.status).sort()).toEqual(['active', 'upcoming']);
    const statuses = await Promise.all(checkouts.map((c) => orderStatus(c.reference)));
    expect(statuses[refused]).toBe('held');
    expect(statuses.filter((status) => status === 'paid')).toHaveLength(2);
    const list = await t.app.inject({
      method: 'GET',
      url: '/v1/admin/held_payments',
      headers: await t.adminHeaders(),
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          reference: checkouts[refused]!.reference,
          amount: checkouts[refused]!.amount,
          currency: checkouts[refused]!.currency,
        }),
      ]),
    );
  });
});

describe('the order sweep', () => {
  it('grants a paid order nobody confirmed, voids an unpaid one past its expiry, and a second run changes nothing', async () => {
    const sweep = (now = new Date()) =>
      paymentSweepJob({ services: t.runtime.services, log: t.runtime.log }, now);
    const paidApp = await t.newApp(dev);
    const unpaidApp = await t.newApp(dev);
    const paid = (await initialize(paidApp)).json().data;
    const unpaid = (await initialize(unpaidApp)).json().data;
    // Paid at the provider with its webhook lost: the sandbox's trigger would tell the webhook, so the test marks
    // the fake's books directly.
    await t.runtime.database.db
      .update(sandboxTransactions)
      .set({ status: 'SUCCESSFUL' })
      .where(eq(sandboxTransactions.id, paid.transactionId));
    const later = new Date(Date.now() + 31 * 60 * 1000);
    await sweep(later);
    expect(await orderStatus(paid.reference)).toBe('paid');
    expect(await recorded(paidApp)).toEqual({ subscriptions: 1, transactions: 1 });
    expect(await orderStatus(unpaid.reference)).toBe('expired');
    await sweep(later);
    expect(await recorded(paidApp)).toEqual({ subscriptions: 1, transactions: 1 });
    expect(await recorded(unpaidApp)).toEqual({ subscriptions: 0, transactions: 0 });
  });
});

// The unused term of a plan is credited once (an upgrade's credit is reserved by one order and spent at settlement),
// and the checkout's "starts now or when the current plan ends" is the grant's, read from one shared rule.
import { eq } from 'drizzle-orm';
import { paymentOrders, subscriptions, transactions } from '../src/db/schema';
import { sandboxCheckout } from './support/checkout';
import { developerFactory } from './support/developers';
import { createListeningTestApp, type TestApp } from './support/test-app';

let t: TestApp;
let base: string;
const signUp = developerFactory(() => t, 'credit', 91);
const DAY_MS = 86_400_000;

type PlanName = 'Starter' | 'Growth' | 'Business';
const PRICES: Record<PlanName, number> = { Starter: 120, Growth: 480, Business: 1200 };
const planIds = {} as Record<PlanName, string>;

beforeAll(async () => {
  ({ t, base } = await createListeningTestApp());
  for (const [name, amount] of Object.entries(PRICES)) {
    planIds[name as PlanName] = (await t.createPlan({ name, amount })).json().data._id;
  }
});
afterAll(() => t.close());

const db = () => t.runtime.database.db;

const { initialize, pay, confirm } = sandboxCheckout(() => ({ t, base }), planIds);

/** An app on Starter, 100 days into its 365-day term (the term is moved back rather than the clock forward). */
async function midTermStarter() {
  const developer = await signUp();
  const appId = await t.newApp(developer);
  const checkout = (await initialize(developer, appId, 'Starter')).json().data;
  await pay(checkout);
  expect((await confirm(developer, appId, 'Starter', checkout.reference)).statusCode).toBe(200);
  const startsAt = new Date(Date.now() - 100 * DAY_MS);
  await db()
    .update(subscriptions)
    .set({ startsAt, expireAt: new Date(startsAt.getTime() + 365 * DAY_MS) })
    .where(eq(subscriptions.appId, appId));
  return { developer, appId };
}

async function plansOf(appId: string) {
  const rows = await db().select().from(subscriptions).where(eq(subscriptions.appId, appId));
  const now = new Date();
  return rows
    .filter((row) => row.status !== 'expired' && row.expireAt > now)
    .map((row) => ({ plan: row.planName, status: row.status }));
}

const paidAmounts = async (appId: string) =>
  (await db().select().from(transactions).where(eq(transactions.appId, appId)))
    .map((row) => row.amount)
    .sort((a, b) => a - b);

describe("an upgrade's credit", () => {
  async function twoUpgrades() {
    const { developer, appId } = await midTermStarter();
    const growth = (await initialize(developer, appId, 'Growth')).json().data;
    const business = (await initialize(developer, appId, 'Business')).json().data;
    // The same unused Starter term (120 × 265/365, to the cent below) is offered to both orders.
    expect(growth.upgrade).toMatchObject({ from: 'Starter', credit: 87.12 });
    expect(business.upgrade).toMatchObject({ from: 'Starter', credit: 87.12 });
    await pay(growth);
    await pay(business);
    return { developer, appId, growth, business };
  }

  async function expectOnePlanPaidWithOneCredit(appId: string, growthRef: string, businessRef: string) {
    expect(await plansOf(appId)).toEqual([{ plan: 'Business', status: 'active' }]);
    // Starter 120, then Business at 1200 − 87.12 with the 0.4 % fee: nothing else was granted.
    expect(await paidAmounts(appId)).toEqual([120.48, 1117.33]);
    const orders = await db().select().from(paymentOrders).where(eq(paymentOrders.appId, appId));
    const status = (reference: string) => orders.find((row) => row.reference === reference)?.status;
    expect([status(growthRef), status(businessRef)]).toEqual(['held', 'paid']);
  }

  it('is spent once when an upgrade replaced by a dearer one is paid too, the replaced order first', async () => {
    const { developer, appId, growth, business } = await twoUpgrades();
    const late = await confirm(developer, appId, 'Growth', growth.reference);
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toMatch(/credit of your current plan's unused term/);
    expect((await confirm(developer, appId, 'Business', business.reference)).statusCode).toBe(200);
    await expectOnePlanPaidWithOneCredit(appId, growth.reference, business.reference);
  });

  it('is spent once when the order holding it is paid first', async () => {
    const { developer, appId, growth, business } = await twoUpgrades();
    expect((await confirm(developer, appId, 'Business', business.reference)).statusCode).toBe(200);
    expect((await confirm(developer, appId, 'Growth', growth.reference)).statusCode).toBe(409);
    await expectOnePlanPaidWithOneCredit(appId, growth.reference, business.reference);
  });

  it('is spent once when both payments settle at the same moment, by every path that learns of them', async () => {
    const { developer, appId, growth, business } = await twoUpgrades();
    const [answers] = await Promise.all([
      Promise.all([
        confirm(developer, appId, 'Growth', growth.reference),
        confirm(developer, appId, 'Business', business.reference),
        confirm(developer, appId, 'Growth', growth.reference),
        confirm(developer, appId, 'Business', business.reference),
      ]),
      t.runtime.services.payments.reconcile(growth.reference),
      t.runtime.services.payments.reconcile(business.reference),
    ]);
    expect(answers.map((res) => res.statusCode)).toEqual([409, 200, 409, 200]);
    await expectOnePlanPaidWithOneCredit(appId, growth.reference, business.reference);
  });

  it('released by an order that expired unpaid can be spent by its late payment', async () => {
    const { developer, appId } = await midTermStarter();
    const growth = (await initialize(developer, appId, 'Growth')).json().data;
    await db()
      .update(paymentOrders)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(paymentOrders.reference, growth.reference));
    await t.runtime.services.payments.sweepPending();
    await pay(growth);
    expect((await confirm(developer, appId, 'Growth', growth.reference)).statusCode).toBe(200);
    expect(await plansOf(appId)).toEqual([{ plan: 'Growth', status: 'active' }]);
  });
});

/**
 * The checkout says whether a purchase starts now or when the current plan ends; the grant must do what it said. A
 * renewal of the same plan is bought over each state of the current one and the two answers compared.
 */
describe('when a purchase starts: the checkout and the grant agree', () => {
  type Case = { left: number; exhausted?: boolean; upcoming?: boolean; startsLater: boolean };
  const cases: Record<string, Case> = {
    'an active plan in its last 5 days': { left: 3, startsLater: true },
    'an exhausted plan in its last 5 days': { left: 3, exhausted: true, startsLater: false },
    'an exhausted plan mid-term': { left: 200, exhausted: true, startsLater: false },
    'an expired plan': { left: -2, startsLater: false },
  };

  it.each(Object.entries(cases))('over %s', async (_name, c) => {
    const { developer, appId } = await midTermStarter();
    const now = Date.now();
    await db()
      .update(subscriptions)
      .set({
        expireAt: new Date(now + c.left * DAY_MS),
        ...(c.left < 0 ? { status: 'expired' as const } : {}),
        ...(c.exhausted ? { processedRequests: 1000, lastIncrement: new Date(now) } : {}),
      })
      .where(eq(subscriptions.appId, appId));
    const res = await initialize(developer, appId, 'Starter');
    expect(res.statusCode).toBe(201);
    const checkout = res.json().data;
    expect(checkout.isUpcoming).toBe(c.startsLater);
    await pay(checkout);
    const granted = await confirm(developer, appId, 'Starter', checkout.reference);
    expect(granted.statusCode).toBe(200);
    expect(granted.json().data.transaction.isUpcoming).toBe(c.startsLater);
    expect(granted.json().data.subscription.status).toBe(c.startsLater ? 'upcoming' : 'active');
  });

  it('over an upcoming plan already present: the checkout refuses and a payment made before is held', async () => {
    const { developer, appId } = await midTermStarter();
    await db()
      .update(subscriptions)
      .set({ expireAt: new Date(Date.now() + 3 * DAY_MS) })
      .where(eq(subscriptions.appId, appId));
    const first = (await initialize(developer, appId, 'Starter')).json().data;
    const [running] = await db().select().from(subscriptions).where(eq(subscriptions.appId, appId));
    await db()
      .insert(subscriptions)
      .values({
        ...running!,
        id: undefined,
        status: 'upcoming',
        startsAt: running!.expireAt,
        expireAt: new Date(running!.expireAt.getTime() + 365 * DAY_MS),
      });
    const preview = await initialize(developer, appId, 'Starter');
    expect(preview.statusCode).toBe(409);
    await pay(first);
    expect((await confirm(developer, appId, 'Starter', first.reference)).statusCode).toBe(409);
  });
});

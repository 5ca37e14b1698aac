// DESIGN §4 payments, checkout: an order with the server's own price (SPEC §9), fixed in the order and at the
// provider, or a free plan started at once. Whether the purchase starts now or when the current plan ends is the
// shared startOf's answer, the one the grant gives when the payment settles.
import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import {
  PAYMENT_AMOUNT_MAX,
  TERM_MONTHS,
  UPGRADE_WINDOW_DAYS,
  canBuyPlan,
  formatUtcDate,
  prorateUpgrade,
  startOf,
  fromMinor,
  planFeeMinor,
  planPriceMinor,
  toCents,
  usdBuyRate,
  type InitializePaymentInput,
  type InitializedPayment,
  type PaymentCheckout,
  type Plan,
  type Subscription,
} from '@afrofx/shared';
import type { ChangeFeed } from '../../change-feed';
import type { Database } from '../../db/client';
import { accounts, apps, paymentOrders } from '../../db/schema';
import { DomainError, badRequest, conflict } from '../../errors';
import type { PlansService } from '../plans/plans.service';
import type { RatesService } from '../rates/rates.service';
import { grant } from '../subscriptions/grant';
import { appsWithFreePlan } from '../subscriptions/subscriptions.repository';
import type { SubscriptionsService } from '../subscriptions/subscriptions.service';
import { ProviderUnavailable, type PaymentProvider } from './payment-provider';
import type { Settlement } from './settlement';

type OrderRow = typeof paymentOrders.$inferSelect;

/** How long the modal may take: after this an unpaid order is void (a paid one is still honoured). */
export const ORDER_TTL_MS = 30 * 60 * 1000;
const REFERENCE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export const ACTIVE_PLAN_MESSAGE = 'You currently have an active plan.';
/** Why an order that was never paid stopped being pending because a newer one replaced it. */
const REPLACED = 'Replaced by a newer order of the same app.';

function newReference(): string {
  const bytes = randomBytes(24);
  return `afx_${Array.from(bytes, (b) => REFERENCE_ALPHABET[b % REFERENCE_ALPHABET.length]).join('')}`;
}

/** What the checkout is handed: settlement's verification, for a reused order the provider may have settled. */
export interface CheckoutDeps {
  db: Database;
  provider: PaymentProvider;
  changes: ChangeFeed;
  plans: PlansService;
  rates: RatesService;
  subscriptions: SubscriptionsService;
  /** How many apps of one account may run a free plan (0: none). */
  freePlanAppsPerAccount?: number;
  reverify: (order: OrderRow) => Promise<Settlement>;
  fail: (reference: string, reason: string) => Promise<void>;
}

export function createCheckout(deps: CheckoutDeps) {
  const { db, provider, changes } = deps;
  const freePlanAppsPerAccount = deps.freePlanAppsPerAccount ?? 1;

  /**
   * A free plan starts at once with no payment, on an app with no plan running, once per app and on at most
   * `freePlanAppsPerAccount` apps of an account, the accounts of one mailbox counting as one.
   */
  async function activateFree(
    accountId: string,
    appId: string,
    plan: Plan,
    current: Subscription | null,
    upcoming: Subscription | null,
  ): Promise<InitializedPayment> {
    if (freePlanAppsPerAccount === 0) throw conflict('Free plans are not offered at the moment.');
    if (upcoming || (current && current.status !== 'expired')) throw conflict(ACTIVE_PLAN_MESSAGE);
    const subscriptionId = await db.transaction(async (tx) => {
      // Accounts on one mailbox (plus-tagged or dotted spellings of one inbox) count as one, and are decided one
      // after the other: every account of the mailbox is locked.
      const mailbox = sql`coalesce(${accounts.mailbox}, lower(${accounts.email}))`;
      const [own] = await tx
        .select({ mailbox: sql<string>`${mailbox}` })
        .from(accounts)
        .where(eq(accounts.id, accountId));
      const mailboxAccounts = await tx
        .select({ id: accounts.id })
        .from(accounts)
        .where(eq(mailbox, own!.mailbox))
        .orderBy(accounts.id)
        .for('update');
      const freeApps = await appsWithFreePlan(
        tx,
        mailboxAccounts.map((account) => account.id),
      );
      if (freeApps.includes(appId))
        throw conflict('This app has had its free plan already. Choose a paid plan to keep calling the API.');
      if (freeApps.length >= freePlanAppsPerAccount)
        throw conflict(
          `A free plan may run on ${freePlanAppsPerAccount} app${freePlanAppsPerAccount === 1 ? '' : 's'} of an account, and yours has used ${freePlanAppsPerAccount === 1 ? 'it' : 'them'}. Choose a paid plan for this app.`,
        );
      const start = await grant(
        tx,
        {
          appId,
          planId: plan._id,
          planName: plan.name,
          requestLimit: plan.numberOfRequest,
          entitlements: plan.entitlements,
          planAmount: 0,
        },
        new Date(),
      );
      // Nothing runs on this app (checked above, and the app is locked by the grant), so it starts now.
      if (start.kind !== 'started') throw conflict(ACTIVE_PLAN_MESSAGE);
      return start.subscriptionId;
    });
    await changes.publish({ kind: 'app', appId });
    return { activated: true, subscription: (await deps.subscriptions.byId(subscriptionId))! };
  }

  /**
   * A plan dearer than the active one replaces it now, the unused part of its term credited against the
   * price. The same or a cheaper plan waits for the renewal window (SPEC §4's upcoming plan).
   */
  function upgradeOf(current: Subscription | null, upcoming: Subscription | null, plan: Plan, now: Date) {
    if (upcoming || !current || current.status !== 'active') throw conflict(ACTIVE_PLAN_MESSAGE);
    const proration = prorateUpgrade(
      {
        planId: current.plan._id,
        amount: current.amount ?? 0,
        startsAt: current.startsAt,
        expireAt: current.expireAt,
      },
      plan,
      now,
    );
    if (proration.kind !== 'upgrade') {
      throw conflict(
        `${ACTIVE_PLAN_MESSAGE} Your ${current.plan.name} plan runs until ${formatUtcDate(new Date(current.expireAt))}: only a dearer plan can replace it now; the same or a cheaper plan can be bought as its renewal in its last ${UPGRADE_WINDOW_DAYS} days.`,
      );
    }
    return { replaces: current, ...proration };
  }

  async function replacedPlanName(subscriptionId: string) {
    return (await deps.subscriptions.byId(subscriptionId))?.plan.name ?? '';
  }

  /** The customer-facing checkout of an order initialized at the provider. */
  async function checkoutOf(order: OrderRow, accountId: string): Promise<PaymentCheckout> {
    const [account] = await db
      .select({ email: accounts.email, firstName: accounts.firstName, lastName: accounts.lastName })
      .from(accounts)
      .where(eq(accounts.id, accountId));
    const [app] = await db.select({ name: apps.name }).from(apps).where(eq(apps.id, order.appId));
    return {
      provider: provider.name,
      publicKey: provider.publicKey,
      scriptUrl: provider.scriptUrl,
      reference: order.reference,
      transactionId: order.providerTransactionId!,
      amount: fromMinor(order.amountMinor),
      currency: order.currency,
      customer: { name: `${account!.firstName} ${account!.lastName}`.trim(), email: account!.email },
      narration: `AfroFX ${order.planName} plan for ${app!.name}, ${TERM_MONTHS} months`,
      plan: { _id: order.planId!, name: order.planName },
      isUpcoming: order.isUpcoming,
      ...(order.replacesSubscriptionId && order.planAmount !== null
        ? {
            upgrade: {
              from: await replacedPlanName(order.replacesSubscriptionId),
              price: order.planAmount,
              credit: fromMinor(order.creditCents),
              due: fromMinor(toCents(order.planAmount) - order.creditCents),
            },
          }
        : {}),
      expiresAt: order.expiresAt.toISOString(),
    };
  }

  type Upgrade = ReturnType<typeof upgradeOf>;
  type Currency = InitializePaymentInput['currency'];

  /** The price in the chosen currency, fee included; an upgrade is charged on what is due after its credit. */
  async function priceOf(plan: Plan, currency: Currency, upgrade: Upgrade | null) {
    const rate =
      currency === 'NGN' ? usdBuyRate(await deps.rates.latestForMarket('black_market_cash')) : null;
    const chargedUsd = upgrade ? fromMinor(upgrade.dueCents) : plan.amount;
    const amountMinor = planPriceMinor(chargedUsd, currency, rate ?? 0);
    const feeMinor = planFeeMinor(chargedUsd, currency, rate ?? 0);
    if (fromMinor(amountMinor) > PAYMENT_AMOUNT_MAX) {
      throw badRequest(`This plan costs more than one payment may be (${PAYMENT_AMOUNT_MAX} ${currency}).`);
    }
    return { rate, amountMinor, feeMinor };
  }

  /**
   * An app has at most one pending order: the same plan and currency reuse it (while it has half its time left),
   * anything else replaces it.
   */
  async function openOrder(
    wanted: {
      accountId: string;
      appId: string;
      plan: Plan;
      currency: Currency;
      upgrade: Upgrade | null;
      price: Awaited<ReturnType<typeof priceOf>>;
      isUpcoming: boolean;
    },
    now: Date,
  ): Promise<OrderRow> {
    const { accountId, appId, plan, currency, upgrade, price } = wanted;
    return db.transaction(async (tx) => {
      // Initializations of one app are decided one after the other.
      await tx.select({ id: apps.id }).from(apps).where(eq(apps.id, appId)).for('update');
      const pending = await tx
        .select()
        .from(paymentOrders)
        .where(and(eq(paymentOrders.appId, appId), eq(paymentOrders.status, 'pending')));
      const reusable = pending.find(
        (row) =>
          row.planId === plan._id &&
          row.currency === currency &&
          row.replacesSubscriptionId === (upgrade?.replaces._id ?? null) &&
          row.providerTransactionId !== null &&
          row.expiresAt.getTime() - now.getTime() > ORDER_TTL_MS / 2,
      );
      if (reusable) return reusable;
      // Basqet's clients show no call to cancel a transaction: a replaced order is void here, and a payment that
      // still reaches it is honoured by the settlement (or held) like any late payment.
      if (pending.length > 0) {
        await tx
          .update(paymentOrders)
          .set({ status: 'expired', failureReason: REPLACED })
          .where(and(eq(paymentOrders.appId, appId), eq(paymentOrders.status, 'pending')));
      }
      const [created] = await tx
        .insert(paymentOrders)
        .values({
          reference: newReference(),
          provider: provider.name,
          appId,
          accountId,
          planId: plan._id,
          planName: plan.name,
          requestLimit: plan.numberOfRequest,
          entitlements: plan.entitlements,
          planAmount: plan.amount,
          creditCents: upgrade?.creditCents ?? 0,
          replacesSubscriptionId: upgrade?.replaces._id ?? null,
          currency,
          amountMinor: price.amountMinor,
          feeMinor: price.feeMinor,
          usdRate: price.rate,
          isUpcoming: wanted.isUpcoming,
          expiresAt: new Date(now.getTime() + ORDER_TTL_MS),
        })
        .returning();
      return created!;
    });
  }

  /** Opens the order's transaction at the provider; one that cannot be reached fails the order, nothing charged. */
  async function initializeAtProvider(
    order: OrderRow,
    account: { email: string; firstName: string; lastName: string },
  ): Promise<OrderRow> {
    let transactionId: string;
    try {
      transactionId = await provider.initialize({
        reference: order.reference,
        amountMinor: order.amountMinor,
        currency: order.currency,
        customer: { name: `${account.firstName} ${account.lastName}`.trim(), email: account.email },
      });
    } catch (err) {
      if (!(err instanceof ProviderUnavailable)) throw err;
      await deps.fail(order.reference, `not initialized at the provider: ${err.message}`);
      throw new DomainError(
        503,
        'The payment provider could not be reached. Nothing was charged; try again shortly.',
      );
    }
    const [initialized] = await db
      .update(paymentOrders)
      .set({ providerTransactionId: transactionId })
      .where(eq(paymentOrders.id, order.id))
      .returning();
    return initialized!;
  }

  /**
   * SPEC §4: buying follows the shared canBuyPlan, and the shared startOf says whether the purchase is `upcoming`,
   * as the grant will.
   */
  async function initialize(
    accountId: string,
    appId: string,
    input: InitializePaymentInput,
    reusedOrderWasSettled = false,
  ): Promise<InitializedPayment> {
    const now = new Date();
    const plan = await deps.plans.onSale(input.plan);
    const [current, upcoming] = await Promise.all([
      deps.subscriptions.current(appId),
      deps.subscriptions.upcoming(appId),
    ]);
    if (plan.amount === 0) return activateFree(accountId, appId, plan, current, upcoming);
    const upgrade = canBuyPlan(current, upcoming, now) ? null : upgradeOf(current, upcoming, plan, now);
    const price = await priceOf(plan, input.currency, upgrade);
    const [account] = await db
      .select({ email: accounts.email, firstName: accounts.firstName, lastName: accounts.lastName })
      .from(accounts)
      .where(eq(accounts.id, accountId));
    const isUpcoming =
      startOf({ replacesCurrent: Boolean(upgrade) }, { current, upcoming }, now).kind === 'upcoming';
    const order = await openOrder(
      { accountId, appId, plan, currency: input.currency, upgrade, price, isUpcoming },
      now,
    );
    if (order.providerTransactionId) {
      // A reused order may have been settled at the provider since (declined in the modal, or paid): it is
      // settled here, and a new order is opened (or refused, when it was paid) rather than a finished one offered.
      const outcome = reusedOrderWasSettled ? { kind: 'pending' } : await deps.reverify(order);
      if (outcome.kind === 'pending' || outcome.kind === 'unavailable') return checkoutOf(order, accountId);
      return initialize(accountId, appId, input, true);
    }
    return checkoutOf(await initializeAtProvider(order, account!), accountId);
  }

  return { initialize };
}

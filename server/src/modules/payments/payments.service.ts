// DESIGN §4 payments: an order with the server's own price, verified with the provider server to server, and one
// idempotent completion for every path that learns of a payment (the browser's create_transaction, the provider's
// webhook, the reconcile job). "Nothing here may ever grant a plan that was not paid, charge twice, or lose a
// payment that was made": the order moves pending → paid in one conditional UPDATE, in the same database
// transaction as its one transaction row and its subscription.
import { randomBytes } from 'node:crypto';
import { and, desc, eq, inArray, lte, or } from 'drizzle-orm';
import {
  PAYMENT_AMOUNT_MAX,
  TERM_MONTHS,
  UPGRADE_WINDOW_DAYS,
  canBuyPlan,
  formatUtcDate,
  prorateUpgrade,
  isUpcomingPurchase,
  fromMinor,
  planFeeMinor,
  planPriceMinor,
  toCents,
  usdBuyRate,
  type CreateTransactionInput,
  type HeldPayment,
  type InitializePaymentInput,
  type InitializedPayment,
  type PaymentCheckout,
  type Plan,
  type Purchase,
  type Subscription,
} from '@afrofx/shared';
import type { ChangeFeed } from '../../change-feed';
import type { Database } from '../../db/client';
import { accounts, apps, paymentOrders, subscriptions, transactions } from '../../db/schema';
import { DomainError, badRequest, conflict, notFound } from '../../errors';
import type { Enqueue } from '../../jobs/enqueue';
import type { PlansService } from '../plans/plans.service';
import type { RatesService } from '../rates/rates.service';
import { startFromOrder } from '../subscriptions/start-from-order';
import type { SubscriptionsService } from '../subscriptions/subscriptions.service';
import type { ReceiptsService } from './receipts.service';
import {
  PROVIDER_TRANSACTION_ID,
  ProviderUnavailable,
  type PaymentProvider,
  type PaymentVerification,
} from './payment-provider';

type OrderRow = typeof paymentOrders.$inferSelect;

/** How long the modal may take: after this an unpaid order is void (a paid one is still honoured). */
export const ORDER_TTL_MS = 30 * 60 * 1000;
const REFERENCE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export const ACTIVE_PLAN_MESSAGE = 'You currently have an active plan.';
/** Why an order that was never paid stopped being pending because a newer one replaced it. */
const REPLACED = 'Replaced by a newer order of the same app.';
/** Why a paid order was held instead of granted (SPEC §4: at most one upcoming plan). */
export const HELD_FOR_STACKING =
  'Paid while the app already had an upcoming plan: held for an administrator to refund or grant.';
/** Why a paid order was held because the payment was on a transaction the server never priced. */
const HELD_FOREIGN_TRANSACTION =
  'Paid on a transaction this order did not initialize, at an amount the status call does not give: check it at the provider, then refund or grant. Transaction';
const unknownReference = () => notFound('No payment was started for this app with this reference.');
const providerUnavailable = () =>
  new DomainError(
    503,
    'The payment provider could not be reached to confirm your payment. Nothing is lost: it will be confirmed shortly.',
  );
const notSuccessful = () => new DomainError(402, 'The payment was not successful, so no plan was added.');
const held = () =>
  new DomainError(
    409,
    'Your payment was received, but this app already has an upcoming plan, so no second one was added. It is held for our team, who will refund it.',
  );

function newReference(): string {
  const bytes = randomBytes(24);
  return `afx_${Array.from(bytes, (b) => REFERENCE_ALPHABET[b % REFERENCE_ALPHABET.length]).join('')}`;
}

/** What settling one order came to. */
export type Settlement =
  | { kind: 'paid' }
  | { kind: 'held' }
  | { kind: 'pending' }
  | { kind: 'failed'; providerStatus: string }
  | { kind: 'unavailable' };

export function createPaymentsService(deps: {
  db: Database;
  provider: PaymentProvider;
  changes: ChangeFeed;
  enqueue: Enqueue;
  plans: PlansService;
  rates: RatesService;
  subscriptions: SubscriptionsService;
  receipts: ReceiptsService;
  /** Issue 20: how many apps of one account may run a free plan (0: none). */
  freePlanAppsPerAccount?: number;
}) {
  const { db, provider, changes, enqueue } = deps;
  const freePlanAppsPerAccount = deps.freePlanAppsPerAccount ?? 1;

  /**
   * Issue 20: a free plan starts at once with no payment, on an app with no plan running, once per app and on at most
   * `freePlanAppsPerAccount` apps of an account (apps of one account are decided one after the other).
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
      await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId)).for('update');
      const freeApps = await tx
        .selectDistinct({ appId: subscriptions.appId })
        .from(subscriptions)
        .innerJoin(apps, eq(apps.id, subscriptions.appId))
        .where(and(eq(apps.accountId, accountId), eq(subscriptions.amount, 0)));
      if (freeApps.some((row) => row.appId === appId))
        throw conflict('This app has had its free plan already. Choose a paid plan to keep calling the API.');
      if (freeApps.length >= freePlanAppsPerAccount)
        throw conflict(
          `A free plan may run on ${freePlanAppsPerAccount} app${freePlanAppsPerAccount === 1 ? '' : 's'} of an account, and yours has used ${freePlanAppsPerAccount === 1 ? 'it' : 'them'}. Choose a paid plan for this app.`,
        );
      const start = await startFromOrder(
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
      // Nothing runs on this app (checked above, and the app is locked by startFromOrder), so it starts now.
      if (start.kind !== 'started') throw conflict(ACTIVE_PLAN_MESSAGE);
      return start.subscriptionId;
    });
    await changes.publish({ kind: 'app', appId });
    return { activated: true, subscription: (await deps.subscriptions.byId(subscriptionId))! };
  }

  /**
   * Issue 20: a plan dearer than the active one replaces it now, the unused part of its term credited against the
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

  async function purchaseOf(reference: string): Promise<Purchase> {
    const transaction = await deps.subscriptions.transactionByReference(reference);
    const [row] = await db
      .select({ subscriptionId: transactions.subscriptionId })
      .from(transactions)
      .where(eq(transactions.reference, reference));
    const subscription = row?.subscriptionId ? await deps.subscriptions.byId(row.subscriptionId) : null;
    if (!transaction || !subscription) throw notFound('This payment has no plan on record.');
    return { transaction, subscription };
  }

  /**
   * The one completion of a payment the provider confirmed. The conditional UPDATE lets exactly one caller through
   * however many arrive at once; a payment that would stack a second upcoming plan is held, never granted.
   */
  async function complete(reference: string, now = new Date()): Promise<Settlement> {
    const paidApp = await db.transaction(async (tx): Promise<string | Settlement | null> => {
      const [order] = await tx
        .update(paymentOrders)
        .set({ status: 'paid', paidAt: now, failureReason: null })
        .where(
          and(eq(paymentOrders.reference, reference), inArray(paymentOrders.status, ['pending', 'expired'])),
        )
        .returning();
      if (!order) return null;
      const start = await startFromOrder(tx, order, now);
      if (start.kind === 'would-stack') {
        await tx
          .update(paymentOrders)
          .set({ status: 'held', failureReason: HELD_FOR_STACKING })
          .where(eq(paymentOrders.id, order.id));
        return { kind: 'held' };
      }
      await tx.insert(transactions).values({
        appId: order.appId,
        accountId: order.accountId,
        planId: order.planId,
        subscriptionId: start.subscriptionId,
        currency: order.currency,
        amount: fromMinor(order.amountMinor),
        reference: order.reference,
        provider: order.provider,
        transactionStatus: 'successful',
        confirmedStatus: true,
        isUpcoming: start.upcoming,
        receiptMailDue: true,
      });
      return order.appId;
    });
    if (typeof paidApp === 'string') {
      // After the commit: every process's paid API drops what it cached about this app and serves the plan.
      await changes.publish({ kind: 'app', appId: paidApp });
      await deps.receipts.queueMail(reference);
      return { kind: 'paid' };
    }
    return paidApp ?? settledOutcome((await orderOf(reference))!);
  }

  async function fail(reference: string, reason: string) {
    await db
      .update(paymentOrders)
      .set({ status: 'failed', failureReason: reason })
      .where(
        and(eq(paymentOrders.reference, reference), inArray(paymentOrders.status, ['pending', 'expired'])),
      );
  }

  /** What an order no longer pending came to. */
  function settledOutcome(order: OrderRow): Settlement {
    if (order.status === 'paid') return { kind: 'paid' };
    if (order.status === 'held') return { kind: 'held' };
    if (order.status === 'failed') return { kind: 'failed', providerStatus: order.failureReason ?? '' };
    return { kind: 'pending' };
  }

  /**
   * Applies the provider's answer about the transaction the server initialized: complete, refuse, or leave it
   * pending. Its amount and currency are the order's, fixed at the provider by `initialize`, which is why the
   * status alone (all Basqet's verify answers) may decide.
   */
  async function settle(order: OrderRow, verification: PaymentVerification): Promise<Settlement> {
    if (verification.status === 'pending') return { kind: 'pending' };
    if (verification.status === 'failed') {
      await fail(order.reference, `provider said ${verification.providerStatus}`);
      return { kind: 'failed', providerStatus: verification.providerStatus };
    }
    return complete(order.reference);
  }

  async function orderOf(reference: string): Promise<OrderRow | undefined> {
    const [order] = await db.select().from(paymentOrders).where(eq(paymentOrders.reference, reference));
    return order;
  }

  /** Verifies one order with the provider and settles it; `unavailable` when the provider could not answer. */
  async function reverify(order: OrderRow): Promise<Settlement> {
    // Never initialized at the provider: nothing there can have been paid.
    if (!order.providerTransactionId) return { kind: 'pending' };
    let verification: PaymentVerification;
    try {
      verification = await provider.verify(order.providerTransactionId);
    } catch (err) {
      if (err instanceof ProviderUnavailable) return { kind: 'unavailable' };
      throw err;
    }
    return settle(order, verification);
  }

  /**
   * The browser reports a payment on a transaction this order did not initialize (UNCONFIRMED whether Basqet's
   * modal can make one of its own, see docs/payments.md). Its amount cannot be learnt from the status call, so it is
   * never granted; but when the provider says it was paid, the order is held for an admin, so the money is not lost
   * from view.
   */
  async function holdForeignPayment(order: OrderRow, transactionId: string): Promise<void> {
    if (!PROVIDER_TRANSACTION_ID.test(transactionId)) return;
    let verification: PaymentVerification;
    try {
      verification = await provider.verify(transactionId);
    } catch (err) {
      if (err instanceof ProviderUnavailable) return;
      throw err;
    }
    if (verification.status !== 'successful') return;
    await db
      .update(paymentOrders)
      .set({
        status: 'held',
        paidAt: new Date(),
        failureReason: `${HELD_FOREIGN_TRANSACTION} ${transactionId}`,
      })
      .where(and(eq(paymentOrders.id, order.id), inArray(paymentOrders.status, ['pending', 'expired'])));
  }

  async function replacedPlanName(subscriptionId: string) {
    const [row] = await db
      .select({ planName: subscriptions.planName })
      .from(subscriptions)
      .where(eq(subscriptions.id, subscriptionId));
    return row?.planName ?? '';
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

  const service = {
    /**
     * SPEC §4: buying follows the shared canBuyPlan; a purchase within the upgrade window is `upcoming`. The price is the server's (SPEC §9), fixed in the order and at the
     * provider. An app has at most one pending order: the same plan and currency reuse it, anything else replaces it.
     */
    async initialize(
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

      const rate =
        input.currency === 'NGN' ? usdBuyRate(await deps.rates.latestForMarket('black_market_cash')) : null;
      // An upgrade is charged, fee included, on what is due after the credit.
      const chargedUsd = upgrade ? fromMinor(upgrade.dueCents) : plan.amount;
      const amountMinor = planPriceMinor(chargedUsd, input.currency, rate ?? 0);
      const feeMinor = planFeeMinor(chargedUsd, input.currency, rate ?? 0);
      if (fromMinor(amountMinor) > PAYMENT_AMOUNT_MAX) {
        throw badRequest(
          `This plan costs more than one payment may be (${PAYMENT_AMOUNT_MAX} ${input.currency}).`,
        );
      }
      const [account] = await db
        .select({ email: accounts.email, firstName: accounts.firstName, lastName: accounts.lastName })
        .from(accounts)
        .where(eq(accounts.id, accountId));

      const order = await db.transaction(async (tx) => {
        // Initializations of one app are decided one after the other.
        await tx.select({ id: apps.id }).from(apps).where(eq(apps.id, appId)).for('update');
        const pending = await tx
          .select()
          .from(paymentOrders)
          .where(and(eq(paymentOrders.appId, appId), eq(paymentOrders.status, 'pending')));
        const reusable = pending.find(
          (row) =>
            row.planId === plan._id &&
            row.currency === input.currency &&
            row.replacesSubscriptionId === (upgrade?.replaces._id ?? null) &&
            row.providerTransactionId !== null &&
            row.expiresAt.getTime() - now.getTime() > ORDER_TTL_MS / 2,
        );
        if (reusable) return reusable;
        // Basqet's clients show no call to cancel a transaction: a replaced order is void here, and a payment that
        // still reaches it is honoured by `complete` (or held) like any late payment.
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
            currency: input.currency,
            amountMinor,
            feeMinor,
            usdRate: rate,
            isUpcoming: !upgrade && isUpcomingPurchase(current, now),
            expiresAt: new Date(now.getTime() + ORDER_TTL_MS),
          })
          .returning();
        return created!;
      });
      if (order.providerTransactionId) {
        // A reused order may have been settled at the provider since (declined in the modal, or paid): it is
        // settled here, and a new order is opened (or refused, when it was paid) rather than a finished one offered.
        const outcome = reusedOrderWasSettled ? { kind: 'pending' } : await reverify(order);
        if (outcome.kind === 'pending' || outcome.kind === 'unavailable') return checkoutOf(order, accountId);
        return service.initialize(accountId, appId, input, true);
      }

      let transactionId: string;
      try {
        transactionId = await provider.initialize({
          reference: order.reference,
          amountMinor: order.amountMinor,
          currency: order.currency,
          customer: { name: `${account!.firstName} ${account!.lastName}`.trim(), email: account!.email },
        });
      } catch (err) {
        if (!(err instanceof ProviderUnavailable)) throw err;
        await fail(order.reference, `not initialized at the provider: ${err.message}`);
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
      return checkoutOf(initialized!, accountId);
    },

    /**
     * SPEC §7 create_transaction: the browser's word that it paid. Only the provider's answer about the transaction
     * the server initialized for a pending order of this app, for this plan and currency, grants anything; a replay
     * answers the record.
     */
    async confirm(appId: string, input: CreateTransactionInput): Promise<Purchase> {
      const order = await orderOf(input.reference);
      if (!order || order.appId !== appId) throw unknownReference();
      if (order.planId !== input.plan || order.currency !== input.currency) {
        throw badRequest('This payment was started for another plan or currency.');
      }
      if (input.id !== undefined && input.id !== order.providerTransactionId) {
        await holdForeignPayment(order, input.id);
        throw badRequest('This payment is not the transaction the server started for this order.');
      }
      const outcome =
        order.status === 'pending' || order.status === 'expired'
          ? await reverify(order)
          : settledOutcome(order);
      switch (outcome.kind) {
        case 'paid':
          return purchaseOf(order.reference);
        case 'held':
          throw held();
        case 'failed':
          throw notSuccessful();
        case 'unavailable':
          // The reconcile job retries with backoff; the sweep covers a queue that is away too.
          await enqueue(
            'payment-reconcile',
            { reference: order.reference },
            { jobId: order.reference },
          ).catch(() => undefined);
          throw providerUnavailable();
        case 'pending':
          throw conflict('The payment provider has not confirmed this payment yet, so no plan was added.');
      }
    },

    /** Payments taken but not granted, newest first: an admin refunds or grants each. */
    async held(): Promise<HeldPayment[]> {
      const rows = await db
        .select()
        .from(paymentOrders)
        .where(eq(paymentOrders.status, 'held'))
        .orderBy(desc(paymentOrders.paidAt));
      return rows.map((row) => ({
        reference: row.reference,
        providerTransactionId: row.providerTransactionId,
        app: { _id: row.appId },
        planName: row.planName,
        amount: fromMinor(row.amountMinor),
        currency: row.currency,
        reason: row.failureReason ?? '',
        paidAt: row.paidAt?.toISOString() ?? null,
      }));
    },

    webhookIsAuthentic: (rawBody: Buffer, signature: string | undefined) =>
      provider.webhookIsAuthentic(rawBody, signature),

    /**
     * The provider's webhook is only a hint: the order it names (by the provider's transaction id or by our
     * reference) is asked about again, and the answer decides.
     */
    async onWebhook(hint: {
      transactionIds: string[];
      references: string[];
    }): Promise<Settlement | { kind: 'unknown' }> {
      const conditions = [
        ...(hint.transactionIds.length > 0
          ? [inArray(paymentOrders.providerTransactionId, hint.transactionIds)]
          : []),
        ...(hint.references.length > 0 ? [inArray(paymentOrders.reference, hint.references)] : []),
      ];
      if (conditions.length === 0) return { kind: 'unknown' };
      const [order] = await db
        .select()
        .from(paymentOrders)
        .where(
          and(
            eq(paymentOrders.provider, provider.name),
            conditions.length === 1 ? conditions[0] : or(...conditions),
          ),
        )
        .limit(1);
      if (!order) return { kind: 'unknown' };
      if (order.status !== 'pending' && order.status !== 'expired') return settledOutcome(order);
      return reverify(order);
    },

    /** The reconcile job for one order: throws while the provider cannot answer, so the queue retries. */
    async reconcile(reference: string): Promise<Settlement | { kind: 'unknown' }> {
      const order = await orderOf(reference);
      if (!order) return { kind: 'unknown' };
      if (order.status !== 'pending') return settledOutcome(order);
      const outcome = await reverify(order);
      if (outcome.kind === 'unavailable') throw new ProviderUnavailable('payment provider unavailable');
      return outcome;
    },

    /**
     * The order sweep: re-verifies pending orders, and voids those past their expiry that the provider never saw
     * paid. An order the provider cannot answer about stays pending (a payment is never lost).
     */
    async sweepPending(now = new Date()): Promise<{ paid: number; held: number; expired: number }> {
      // An app has at most one pending order, and it lives for minutes, so there are few at any time.
      const pending = await db
        .select()
        .from(paymentOrders)
        .where(eq(paymentOrders.status, 'pending'))
        .orderBy(paymentOrders.createdAt);
      let paid = 0;
      let heldCount = 0;
      let expired = 0;
      for (const order of pending) {
        const outcome = await reverify(order);
        if (outcome.kind === 'paid') paid++;
        if (outcome.kind === 'held') heldCount++;
        if (outcome.kind === 'pending' && order.expiresAt <= now) {
          const voided = await db
            .update(paymentOrders)
            .set({ status: 'expired' })
            .where(
              and(
                eq(paymentOrders.id, order.id),
                eq(paymentOrders.status, 'pending'),
                lte(paymentOrders.expiresAt, now),
              ),
            )
            .returning({ id: paymentOrders.id });
          expired += voided.length;
        }
      }
      return { paid, held: heldCount, expired };
    },
  };
  return service;
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;

// DESIGN §4 payments: an order with the server's own price, verified with the provider server to server, and one
// idempotent completion for every path that learns of a payment (the browser's create_transaction, the provider's
// webhook, the reconcile job). "Nothing here may ever grant a plan that was not paid, charge twice, or lose a
// payment that was made": the order moves pending → paid in one conditional UPDATE, in the same database
// transaction as its one transaction row and its subscription.
import { randomBytes } from 'node:crypto';
import { and, desc, eq, gt, inArray, lte } from 'drizzle-orm';
import {
  UPGRADE_WINDOW_DAYS,
  fromMinor,
  planPriceMinor,
  usdBuyRate,
  type CreateTransactionInput,
  type InitializePaymentInput,
  type PaymentCheckout,
  type Purchase,
} from '@afrofx/shared';
import type { ChangeFeed } from '../../change-feed';
import type { Database } from '../../db/client';
import { accounts, apps, paymentOrders, subscriptions, transactions } from '../../db/schema';
import { DomainError, badRequest, conflict, notFound } from '../../errors';
import type { Enqueue } from '../../jobs/enqueue';
import type { PlansService } from '../plans/plans.service';
import type { RatesService } from '../rates/rates.service';
import { currentUsage, type SubscriptionsService } from '../subscriptions/subscriptions.service';
import { addMonths } from '../public-api/quota-period';
import { TERM_MONTHS } from '../subscriptions/subscription-term';
import { ProviderUnavailable, type PaymentProvider, type PaymentVerification } from './payment-provider';

type OrderRow = typeof paymentOrders.$inferSelect;

/** How long the modal may take: after this an unpaid order is void (a paid one is still honoured). */
export const ORDER_TTL_MS = 30 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
const REFERENCE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export const ACTIVE_PLAN_MESSAGE = 'You currently have an active plan.';
const unknownReference = () => notFound('No payment was started for this app with this reference.');
const providerUnavailable = () =>
  new DomainError(
    503,
    'The payment provider could not be reached to confirm your payment. Nothing is lost: it will be confirmed shortly.',
  );
const notSuccessful = () => new DomainError(402, 'The payment was not successful, so no plan was added.');

function newReference(): string {
  const bytes = randomBytes(24);
  return `afx_${Array.from(bytes, (b) => REFERENCE_ALPHABET[b % REFERENCE_ALPHABET.length]).join('')}`;
}

/** What the lifecycle job and the webhook learn from settling one order. */
export type Settlement = 'paid' | 'pending' | 'failed' | 'unavailable';

export function createPaymentsService(deps: {
  db: Database;
  provider: PaymentProvider;
  changes: ChangeFeed;
  enqueue: Enqueue;
  plans: PlansService;
  rates: RatesService;
  subscriptions: SubscriptionsService;
}) {
  const { db, provider, changes, enqueue } = deps;

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
   * The one completion. Returns false when the order was not pending (already completed, or never to be): the
   * conditional UPDATE lets exactly one caller through however many arrive at once.
   */
  async function complete(reference: string, now = new Date()): Promise<boolean> {
    const appId = await db.transaction(async (tx) => {
      const [order] = await tx
        .update(paymentOrders)
        .set({ status: 'paid', paidAt: now, failureReason: null })
        .where(
          and(eq(paymentOrders.reference, reference), inArray(paymentOrders.status, ['pending', 'expired'])),
        )
        .returning();
      if (!order) return null;
      // Purchases of one app are serialised, so two paid orders cannot both start now: the later one follows.
      await tx.select({ id: apps.id }).from(apps).where(eq(apps.id, order.appId)).for('update');
      const running = await tx
        .select()
        .from(subscriptions)
        .where(
          and(
            eq(subscriptions.appId, order.appId),
            inArray(subscriptions.status, ['active', 'exhausted', 'upcoming']),
            gt(subscriptions.expireAt, now),
          ),
        )
        .orderBy(desc(subscriptions.expireAt));
      // DESIGN §4: a plan still serving (not exhausted) is followed, not cut short: the new one is `upcoming` and
      // starts when the last one ends. An exhausted or expired plan is replaced at once.
      const serving = running.find((row) => currentUsage(row, now).status !== 'exhausted');
      const startsAt = serving ? running[0]!.expireAt : now;
      const upcoming = startsAt > now;
      const [subscription] = await tx
        .insert(subscriptions)
        .values({
          appId: order.appId,
          planId: order.planId,
          planName: order.planName,
          status: upcoming ? 'upcoming' : 'active',
          requestLimit: order.requestLimit,
          startsAt,
          expireAt: addMonths(startsAt, TERM_MONTHS),
        })
        .returning({ id: subscriptions.id });
      await tx.insert(transactions).values({
        appId: order.appId,
        accountId: order.accountId,
        planId: order.planId,
        subscriptionId: subscription!.id,
        currency: order.currency,
        amount: fromMinor(order.amountMinor),
        reference: order.reference,
        provider: order.provider,
        transactionStatus: 'successful',
        confirmedStatus: true,
        isUpcoming: upcoming,
      });
      return order.appId;
    });
    // After the commit: every process's paid API drops what it cached about this app and serves the plan.
    if (appId) await changes.publish({ kind: 'app', appId });
    return appId !== null;
  }

  async function fail(reference: string, reason: string) {
    await db
      .update(paymentOrders)
      .set({ status: 'failed', failureReason: reason })
      .where(
        and(eq(paymentOrders.reference, reference), inArray(paymentOrders.status, ['pending', 'expired'])),
      );
  }

  /** Applies the provider's answer to the order: complete, refuse, or leave it pending. */
  async function settle(order: OrderRow, verification: PaymentVerification): Promise<Settlement> {
    if (verification.status === 'pending') return 'pending';
    if (verification.status === 'failed') {
      await fail(order.reference, `provider said ${verification.providerStatus}`);
      return 'failed';
    }
    if (verification.currency !== order.currency || verification.amountMinor !== order.amountMinor) {
      // Paid, but not this order's price: never granted; kept failed with what was paid, for a refund.
      await fail(
        order.reference,
        `paid ${verification.amountMinor ?? '?'} ${verification.currency ?? '?'} (minor units), expected ${order.amountMinor} ${order.currency}`,
      );
      return 'failed';
    }
    await complete(order.reference);
    return 'paid';
  }

  async function orderOf(reference: string): Promise<OrderRow | undefined> {
    const [order] = await db.select().from(paymentOrders).where(eq(paymentOrders.reference, reference));
    return order;
  }

  /** Verifies one order with the provider and settles it; `unavailable` when the provider could not answer. */
  async function reverify(order: OrderRow): Promise<Settlement> {
    let verification: PaymentVerification;
    try {
      verification = await provider.verify(order.reference);
    } catch (err) {
      if (err instanceof ProviderUnavailable) return 'unavailable';
      throw err;
    }
    return settle(order, verification);
  }

  return {
    /**
     * SPEC §4: buying is allowed when no upcoming plan exists and the current plan is not active or ends within 5
     * days; such a late purchase is `upcoming`. The price is the server's (SPEC §9), fixed in the order.
     */
    async initialize(
      accountId: string,
      appId: string,
      input: InitializePaymentInput,
    ): Promise<PaymentCheckout> {
      const now = new Date();
      const plan = await deps.plans.onSale(input.plan);
      const [current, upcoming] = await Promise.all([
        deps.subscriptions.current(appId),
        deps.subscriptions.upcoming(appId),
      ]);
      const live = current && current.status !== 'expired' ? current : null;
      const endsSoon =
        live !== null && Date.parse(live.expireAt) - now.getTime() <= UPGRADE_WINDOW_DAYS * DAY_MS;
      if (upcoming || (live?.status === 'active' && !endsSoon)) throw conflict(ACTIVE_PLAN_MESSAGE);

      const rate =
        input.currency === 'NGN' ? usdBuyRate(await deps.rates.latestForMarket('black_market_cash')) : null;
      const amountMinor = planPriceMinor(plan.amount, input.currency, rate ?? 0);
      const [account] = await db
        .select({ email: accounts.email, firstName: accounts.firstName, lastName: accounts.lastName })
        .from(accounts)
        .where(eq(accounts.id, accountId));
      const [app] = await db.select({ name: apps.name }).from(apps).where(eq(apps.id, appId));
      const [order] = await db
        .insert(paymentOrders)
        .values({
          reference: newReference(),
          provider: provider.name,
          appId,
          accountId,
          planId: plan._id,
          planName: plan.name,
          requestLimit: plan.numberOfRequest,
          currency: input.currency,
          amountMinor,
          usdRate: rate,
          isUpcoming: live !== null,
          expiresAt: new Date(now.getTime() + ORDER_TTL_MS),
        })
        .returning();
      return {
        provider: provider.name,
        publicKey: provider.publicKey,
        scriptUrl: provider.scriptUrl,
        reference: order!.reference,
        amount: fromMinor(amountMinor),
        currency: input.currency,
        customer: { name: `${account!.firstName} ${account!.lastName}`.trim(), email: account!.email },
        narration: `AfroFX ${plan.name} plan for ${app!.name}, ${TERM_MONTHS} months`,
        plan: { _id: plan._id, name: plan.name },
        isUpcoming: order!.isUpcoming,
        expiresAt: order!.expiresAt.toISOString(),
      };
    },

    /**
     * SPEC §7 create_transaction: the browser's word that it paid. Only the provider's answer about a pending order
     * of this app, for this plan and currency, at this order's price, grants anything; a replay answers the record.
     */
    async confirm(appId: string, input: CreateTransactionInput): Promise<Purchase> {
      const order = await orderOf(input.reference);
      if (!order || order.appId !== appId) throw unknownReference();
      if (order.planId !== input.plan || order.currency !== input.currency) {
        throw badRequest('This payment was started for another plan or currency.');
      }
      if (order.status === 'paid') return purchaseOf(order.reference);
      if (order.status === 'failed') throw notSuccessful();
      const outcome = await reverify(order);
      if (outcome === 'unavailable') {
        // The reconcile job retries with backoff; the hourly sweep covers a queue that is away too.
        await enqueue('payment-reconcile', { reference: order.reference }, { jobId: order.reference }).catch(
          () => undefined,
        );
        throw providerUnavailable();
      }
      if (outcome === 'pending') {
        throw conflict('The payment provider has not confirmed this payment yet, so no plan was added.');
      }
      if (outcome === 'failed') {
        const settled = await orderOf(order.reference);
        if (settled?.failureReason?.startsWith('paid ')) {
          throw badRequest('The amount paid does not match the price of this plan, so no plan was added.');
        }
        throw notSuccessful();
      }
      return purchaseOf(order.reference);
    },

    webhookSignatureIsValid: (rawBody: Buffer, signature: string | undefined) =>
      provider.signatureIsValid(rawBody, signature),

    /** The provider's webhook (signature already checked): the body only names a reference to re-verify. */
    async onWebhook(reference: string): Promise<Settlement | 'unknown'> {
      const order = await orderOf(reference);
      if (!order) return 'unknown';
      if (order.status === 'paid' || order.status === 'failed') return order.status;
      return reverify(order);
    },

    /** The reconcile job for one order: throws while the provider cannot answer, so the queue retries. */
    async reconcile(reference: string): Promise<Settlement | 'unknown'> {
      const order = await orderOf(reference);
      if (!order) return 'unknown';
      if (order.status !== 'pending') return order.status === 'paid' ? 'paid' : 'failed';
      const outcome = await reverify(order);
      if (outcome === 'unavailable') throw new ProviderUnavailable('payment provider unavailable');
      return outcome;
    },

    /**
     * The lifecycle job's sweep: re-verifies pending orders, and voids those past their expiry that the provider
     * never saw paid. An order the provider cannot answer about stays pending (a payment is never lost).
     */
    async sweepPending(now = new Date()): Promise<{ paid: number; expired: number }> {
      // Pending orders live for minutes, so there are few of them at any time.
      const pending = await db
        .select()
        .from(paymentOrders)
        .where(eq(paymentOrders.status, 'pending'))
        .orderBy(paymentOrders.createdAt);
      let paid = 0;
      let expired = 0;
      for (const order of pending) {
        const outcome = await reverify(order);
        if (outcome === 'paid') paid++;
        if (outcome === 'pending' && order.expiresAt <= now) {
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
      return { paid, expired };
    },
  };
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;

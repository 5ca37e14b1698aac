// DESIGN §4 payments, settlement: one idempotent completion for every path that learns of a payment (the browser's
// create_transaction, the provider's webhook, the reconcile job and the sweep). "Nothing here may ever grant a plan
// that was not paid, charge twice, or lose a payment that was made": the order moves pending → paid in one
// conditional UPDATE, in the same database transaction as its one transaction row and its subscription.
import { and, desc, eq, inArray, lte, or } from 'drizzle-orm';
import { fromMinor, type CreateTransactionInput, type HeldPayment, type Purchase } from '@afrofx/shared';
import type { ChangeFeed } from '../../change-feed';
import type { Database } from '../../db/client';
import { paymentOrders, transactions } from '../../db/schema';
import { DomainError, badRequest, conflict, notFound } from '../../errors';
import type { Enqueue } from '../../queue/enqueue';
import { grant } from '../subscriptions/grant';
import type { SubscriptionsService } from '../subscriptions/subscriptions.service';
import type { ReceiptsService } from './receipts.service';
import {
  PROVIDER_TRANSACTION_ID,
  ProviderUnavailable,
  type PaymentProvider,
  type PaymentVerification,
} from './payment-provider';

type OrderRow = typeof paymentOrders.$inferSelect;

/** Why a paid order was held instead of granted (SPEC §4: at most one upcoming plan). */
export const HELD_FOR_STACKING =
  'Paid while the app already had an upcoming plan: held for an administrator to refund or grant.';
/** Why a paid upgrade was held: the credit it was priced with went to another order of the app. */
export const HELD_CREDIT_SPENT =
  'Paid with the credit of a plan whose unused term another order of the app has spent or holds: held for an administrator to refund.';
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
const held = (reason: string | null) =>
  new DomainError(
    409,
    reason === HELD_CREDIT_SPENT
      ? "Your payment was received, but the credit of your current plan's unused term it counted on went to another payment of this app, so no plan was added at that price. It is held for our team, who will refund it."
      : 'Your payment was received, but this app already has an upcoming plan, so no second one was added. It is held for our team, who will refund it.',
  );

/** What settling one order came to. */
export type Settlement =
  | { kind: 'paid' }
  | { kind: 'held' }
  | { kind: 'pending' }
  | { kind: 'failed'; providerStatus: string }
  | { kind: 'unavailable' };

/** What settlement is handed. */
export interface SettlementDeps {
  db: Database;
  provider: PaymentProvider;
  changes: ChangeFeed;
  enqueue: Enqueue;
  subscriptions: SubscriptionsService;
  receipts: ReceiptsService;
}

export function createSettlement(deps: SettlementDeps) {
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
      const start = await grant(tx, order, now);
      if (start.kind !== 'started') {
        await tx
          .update(paymentOrders)
          .set({
            status: 'held',
            failureReason: start.kind === 'would-stack' ? HELD_FOR_STACKING : HELD_CREDIT_SPENT,
          })
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

  return {
    /** Verifies an order with the provider and settles it (checkout settles a reused order with it). */
    reverify,
    /** Marks an order that will never be paid failed. */
    fail,

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
          throw held((await orderOf(order.reference))?.failureReason ?? null);
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
}

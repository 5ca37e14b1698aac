// Issue 20: a receipt for every payment. A settled payment's transaction row is its receipt; the settlement marks it
// `receipt_mail_due` in its own database transaction, so a receipt owed is never lost with a process or a queue
// that is away. The mail job records the sending at the SMTP commit point (see smtp-delivery.ts), in a conditional
// UPDATE, so a payment reported twice (webhook and verify), a retried job and the sweep still mail it once.
import { TERM_MONTHS, fromMinor, type Receipt, type ReceiptLine } from '@afrofx/shared';
import { and, count, desc, eq, lte } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { accounts, apps, paymentOrders, subscriptions, transactions } from '../../db/schema';
import { notFound } from '../../errors';
import type { Page } from '../../http';
import type { Enqueue } from '../../jobs/enqueue';

/** Past the queue's own retries (about two minutes), the sweep queues a receipt still owed once more. */
export const RECEIPT_RESEND_AFTER_MS = 5 * 60 * 1000;

/** The record step's answer when another job recorded the receipt first: this copy is abandoned before its final dot. */
export class ReceiptAlreadyMailed extends Error {
  constructor(reference: string) {
    super(`the receipt of ${reference} was mailed already`);
  }
}

const receiptJobId = (reference: string) => `receipt-${reference}`;

/**
 * The receipt's lines, from the payment row alone: the plan for the term, then the fee. They add up to the amount
 * paid; another line (a credit) goes here, taken from the order like the fee.
 */
function receiptLines(row: {
  planName: string;
  amountMinor: number;
  feeMinor: number | null;
}): ReceiptLine[] {
  const plan = `${row.planName} plan, ${TERM_MONTHS} months`;
  if (row.feeMinor === null) return [{ label: plan, amount: fromMinor(row.amountMinor) }];
  return [
    { label: plan, amount: fromMinor(row.amountMinor - row.feeMinor) },
    // SPEC §9: the 0.4 percent fee.
    { label: 'Payment fee (0.4%)', amount: fromMinor(row.feeMinor) },
  ];
}

export function createReceiptsService(db: Database, enqueue: Enqueue, seller: Receipt['seller']) {
  const receiptRows = () =>
    db
      .select({
        t: transactions,
        planName: paymentOrders.planName,
        requestLimit: paymentOrders.requestLimit,
        amountMinor: paymentOrders.amountMinor,
        feeMinor: paymentOrders.feeMinor,
        appName: apps.name,
        firstName: accounts.firstName,
        lastName: accounts.lastName,
        email: accounts.email,
        startsAt: subscriptions.startsAt,
        expireAt: subscriptions.expireAt,
        subscriptionPlan: subscriptions.planName,
        subscriptionLimit: subscriptions.requestLimit,
      })
      .from(transactions)
      .innerJoin(apps, eq(apps.id, transactions.appId))
      .innerJoin(accounts, eq(accounts.id, transactions.accountId))
      .leftJoin(paymentOrders, eq(paymentOrders.reference, transactions.reference))
      .leftJoin(subscriptions, eq(subscriptions.id, transactions.subscriptionId));

  type Row = Awaited<ReturnType<ReturnType<typeof receiptRows>['where']>>[number];

  function toReceipt(row: Row): Receipt {
    const { t } = row;
    // Payments recorded before orders were kept (the demo's) have no order: the row's own amount stands alone.
    const amountMinor = row.amountMinor ?? Math.round(t.amount * 100);
    const planName = row.planName ?? row.subscriptionPlan ?? 'AfroFX';
    return {
      reference: t.reference,
      paidAt: t.createdAt.toISOString(),
      amount: fromMinor(amountMinor),
      currency: t.currency,
      fee: row.feeMinor === null ? null : fromMinor(row.feeMinor),
      lines: receiptLines({ planName, amountMinor, feeMinor: row.feeMinor }),
      plan: { name: planName, requestLimit: row.requestLimit ?? row.subscriptionLimit ?? 0 },
      app: { _id: t.appId, name: row.appName },
      period:
        row.startsAt && row.expireAt
          ? { start: row.startsAt.toISOString(), end: row.expireAt.toISOString() }
          : null,
      isUpcoming: t.isUpcoming,
      billedTo: { name: `${row.firstName} ${row.lastName}`.trim(), email: row.email },
      seller,
      mailedAt: t.receiptMailedAt?.toISOString() ?? null,
    };
  }

  const confirmedOf = (accountId: string) =>
    and(eq(transactions.accountId, accountId), eq(transactions.confirmedStatus, true));

  return {
    /** Asks the queue to mail a receipt now; a queue that is away is no loss (the payment sweep queues it later). */
    async queueMail(reference: string): Promise<void> {
      await enqueue('receipt-mail', { reference }, { jobId: receiptJobId(reference) }).catch(() => undefined);
    },

    /** GET account/receipts: the account's receipts, newest first. */
    async list(accountId: string, page: Page): Promise<{ rows: Receipt[]; count: number }> {
      const [rows, [total]] = await Promise.all([
        receiptRows()
          .where(confirmedOf(accountId))
          .orderBy(desc(transactions.createdAt), desc(transactions.id))
          .limit(page.limit)
          .offset(page.offset),
        db.select({ value: count() }).from(transactions).where(confirmedOf(accountId)),
      ]);
      return { rows: rows.map(toReceipt), count: total?.value ?? 0 };
    },

    /** One of the account's receipts; another account's answers 404 like an unknown one. */
    async one(accountId: string, reference: string): Promise<Receipt> {
      const [row] = await receiptRows().where(
        and(confirmedOf(accountId), eq(transactions.reference, reference)),
      );
      if (!row) throw notFound('No receipt with this reference.');
      return toReceipt(row);
    },

    /** The receipt a mail job is to send, or null when none is owed (sent already, or never owed). */
    async due(reference: string): Promise<Receipt | null> {
      const [row] = await receiptRows().where(
        and(eq(transactions.reference, reference), eq(transactions.receiptMailDue, true)),
      );
      return row ? toReceipt(row) : null;
    },

    /**
     * Records the receipt as mailed, at the SMTP commit point: `release` lets the final dot go right after the
     * COMMIT. Only one sender gets through the conditional UPDATE; any other is refused before its dot.
     */
    async recordMailed(reference: string, release: () => void): Promise<void> {
      await db.transaction(async (tx) => {
        const marked = await tx
          .update(transactions)
          .set({ receiptMailDue: false, receiptMailedAt: new Date() })
          .where(and(eq(transactions.reference, reference), eq(transactions.receiptMailDue, true)))
          .returning({ id: transactions.id });
        if (marked.length === 0) throw new ReceiptAlreadyMailed(reference);
        setImmediate(release);
      });
    },

    /** Takes back a record whose message the mail server then refused, so that a retry sends it. */
    async forgetMailed(reference: string): Promise<void> {
      await db
        .update(transactions)
        .set({ receiptMailDue: true, receiptMailedAt: null })
        .where(eq(transactions.reference, reference));
    },

    /**
     * Part of the payment sweep: queues every receipt still owed after the queue's own retries, e.g. one settled
     * while the queue was away or the mail server was down for longer. A job id of its own per sweep, since the
     * first job's id stays taken by its failure.
     */
    async sweep(now = new Date()): Promise<number> {
      const owed = await db
        .select({ reference: transactions.reference })
        .from(transactions)
        .where(
          and(
            eq(transactions.receiptMailDue, true),
            lte(transactions.createdAt, new Date(now.getTime() - RECEIPT_RESEND_AFTER_MS)),
          ),
        )
        .orderBy(transactions.createdAt)
        .limit(500);
      for (const { reference } of owed) {
        await enqueue(
          'receipt-mail',
          { reference },
          { jobId: `${receiptJobId(reference)}-${now.getTime()}` },
        ).catch(() => undefined);
      }
      return owed.length;
    },
  };
}

export type ReceiptsService = ReturnType<typeof createReceiptsService>;

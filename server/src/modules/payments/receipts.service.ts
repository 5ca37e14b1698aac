// A receipt for every payment. A settled payment's transaction row is its receipt; the settlement marks it
// `receipt_mail_due` in its own database transaction, so a receipt owed is never lost with a process or a queue
// that is away. The mail job records the sending at the SMTP commit point (see smtp-delivery.ts), in a conditional
// UPDATE, so a payment reported twice (webhook and verify), a retried job and the sweep still mail it once.
import {
  TERM_MONTHS,
  fromMinor,
  planFeeMinor,
  planPriceMinor,
  type PaymentCurrency,
  type Receipt,
  type ReceiptLine,
} from '@afrofx/shared';
import { and, count, desc, eq, lte } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { accounts, apps, paymentOrders, transactions } from '../../db/schema';
import { notFound } from '../../errors';
import type { Page } from '../../http';
import type { Enqueue } from '../../queue/enqueue';
import { termsOf } from '../subscriptions/subscriptions.repository';

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
 * The receipt's lines, from the payment's order: the plan at its list price for the term, the credit of an upgrade's
 * unused term, then the fee. They add up to the amount paid to the unit: the credit is what is left of the amount
 * after the list price and the fee, so a rounding in the conversion to naira never leaves a gap.
 */
function receiptLines(row: {
  planName: string;
  amountMinor: number;
  feeMinor: number | null;
  planAmount: number | null;
  creditCents: number;
  currency: PaymentCurrency;
  usdRate: number | null;
}): ReceiptLine[] {
  const plan = `${row.planName} plan, ${TERM_MONTHS} months`;
  if (row.feeMinor === null) return [{ label: plan, amount: fromMinor(row.amountMinor) }];
  const fee = { label: 'Payment fee (0.4%)', amount: fromMinor(row.feeMinor) };
  if (row.creditCents <= 0 || row.planAmount === null) {
    return [{ label: plan, amount: fromMinor(row.amountMinor - row.feeMinor) }, fee];
  }
  const rate = row.usdRate ?? 0;
  const listMinor =
    planPriceMinor(row.planAmount, row.currency, rate) - planFeeMinor(row.planAmount, row.currency, rate);
  return [
    { label: `${plan} (list price)`, amount: fromMinor(listMinor) },
    {
      label: 'Credit for the unused part of the previous plan',
      amount: fromMinor(row.amountMinor - row.feeMinor - listMinor),
    },
    fee,
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
        planAmount: paymentOrders.planAmount,
        creditCents: paymentOrders.creditCents,
        usdRate: paymentOrders.usdRate,
        pricedAt: paymentOrders.createdAt,
        appName: apps.name,
        firstName: accounts.firstName,
        lastName: accounts.lastName,
        email: accounts.email,
      })
      .from(transactions)
      .innerJoin(apps, eq(apps.id, transactions.appId))
      .innerJoin(accounts, eq(accounts.id, transactions.accountId))
      .leftJoin(paymentOrders, eq(paymentOrders.reference, transactions.reference));

  type Row = Awaited<ReturnType<ReturnType<typeof receiptRows>['where']>>[number];
  type Term = ReturnType<Awaited<ReturnType<typeof termsOf>>['get']>;

  /** The receipts of these rows, each with the term of the subscription its payment started. */
  async function toReceipts(rows: Row[]): Promise<Receipt[]> {
    const terms = await termsOf(
      db,
      rows.flatMap(({ t }) => (t.subscriptionId ? [t.subscriptionId] : [])),
    );
    return rows.map((row) =>
      toReceipt(row, row.t.subscriptionId ? terms.get(row.t.subscriptionId) : undefined),
    );
  }

  function toReceipt(row: Row, term: Term): Receipt {
    const { t } = row;
    // Payments recorded before orders were kept (the demo's) have no order: the row's own amount stands alone.
    const amountMinor = row.amountMinor ?? Math.round(t.amount * 100);
    const planName = row.planName ?? term?.planName ?? 'AfroFX';
    return {
      reference: t.reference,
      paidAt: t.createdAt.toISOString(),
      amount: fromMinor(amountMinor),
      currency: t.currency,
      fee: row.feeMinor === null ? null : fromMinor(row.feeMinor),
      lines: receiptLines({
        planName,
        amountMinor,
        feeMinor: row.feeMinor,
        planAmount: row.planAmount,
        creditCents: row.creditCents ?? 0,
        currency: t.currency,
        usdRate: row.usdRate,
      }),
      exchangeRate:
        t.currency === 'NGN' && row.usdRate !== null && row.pricedAt
          ? { rate: row.usdRate, at: row.pricedAt.toISOString() }
          : null,
      plan: { name: planName, requestLimit: row.requestLimit ?? term?.requestLimit ?? 0 },
      app: { _id: t.appId, name: row.appName },
      period: term ? { start: term.startsAt.toISOString(), end: term.expireAt.toISOString() } : null,
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
      return { rows: await toReceipts(rows), count: total?.value ?? 0 };
    },

    /** One of the account's receipts; another account's answers 404 like an unknown one. */
    async one(accountId: string, reference: string): Promise<Receipt> {
      const [row] = await receiptRows().where(
        and(confirmedOf(accountId), eq(transactions.reference, reference)),
      );
      if (!row) throw notFound('No receipt with this reference.');
      return (await toReceipts([row]))[0]!;
    },

    /** The receipt a mail job is to send, or null when none is owed (sent already, or never owed). */
    async due(reference: string): Promise<Receipt | null> {
      const [row] = await receiptRows().where(
        and(eq(transactions.reference, reference), eq(transactions.receiptMailDue, true)),
      );
      return row ? (await toReceipts([row]))[0]! : null;
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

import { and, count, desc, eq, ne, type SQL } from 'drizzle-orm';
import { quotaPeriod, type Subscription, type Transaction } from '@afrofx/shared';
import type { Database } from '../../db/client';
import { accounts, apps, plans, subscriptions, transactions } from '../../db/schema';
import type { Page } from '../../http';
import { periodCount, type SubscriptionRow } from './subscriptions.repository';

/**
 * DESIGN §4: expired after expireAt; the monthly count resets each month of the term, so a count last raised in an
 * earlier month of the term is this month's 0 (as the paid API counts it), not a reason to show 'exhausted'.
 */
export function currentUsage(
  row: SubscriptionRow,
  now: Date,
): { status: Subscription['status']; processed: number } {
  if (row.status === 'upcoming' || row.status === 'upgraded')
    return { status: row.status, processed: row.processedRequests };
  if (row.expireAt <= now) return { status: 'expired', processed: row.processedRequests };
  const { start } = quotaPeriod(row.startsAt, row.expireAt, now);
  const processed = periodCount(row.processedRequests, row.lastIncrement, start);
  return { status: processed >= row.requestLimit ? 'exhausted' : 'active', processed };
}

export function createSubscriptionsService(db: Database) {
  /** What every subscription view reads: the row, its app's name, and whether its plan is still on sale. */
  const subscriptionsWithApp = () =>
    db
      .select({
        subscription: subscriptions,
        appName: apps.name,
        planRetiredAt: plans.retiredAt,
        planAmount: plans.amount,
      })
      .from(subscriptions)
      .innerJoin(apps, eq(apps.id, subscriptions.appId))
      .leftJoin(plans, eq(plans.id, subscriptions.planId));

  const toSubscription = (
    {
      subscription: row,
      appName,
      planRetiredAt,
      planAmount,
    }: {
      subscription: SubscriptionRow;
      appName: string;
      planRetiredAt: Date | null;
      planAmount: number | null;
    },
    now = new Date(),
  ): Subscription => {
    const { status, processed } = currentUsage(row, now);
    return {
      _id: row.id,
      // SPEC §8 'Plan was removed': a deleted or retired plan leaves the name the subscription was sold under.
      plan: { _id: planRetiredAt ? null : row.planId, name: row.planName },
      app: { _id: row.appId, name: appName },
      status,
      processedRequest: processed,
      limit: row.requestLimit,
      // Bought before the price was kept: the plan's price stands in for it.
      amount: row.amount ?? planAmount,
      startsAt: row.startsAt.toISOString(),
      expireAt: row.expireAt.toISOString(),
      lastIncrement: row.lastIncrement?.toISOString() ?? null,
      createdAt: row.createdAt.toISOString(),
    };
  };

  const latest = async (appId: string, upcoming: boolean): Promise<Subscription | null> => {
    const [row] = await subscriptionsWithApp()
      .where(
        and(
          eq(subscriptions.appId, appId),
          upcoming ? eq(subscriptions.status, 'upcoming') : ne(subscriptions.status, 'upcoming'),
        ),
      )
      .orderBy(desc(subscriptions.startsAt), desc(subscriptions.createdAt))
      .limit(1);
    return row ? toSubscription(row) : null;
  };

  async function transactionsWhere(
    where: SQL | undefined,
    page: Page,
  ): Promise<{ rows: Transaction[]; count: number }> {
    const [rows, [total]] = await Promise.all([
      db
        .select({
          t: transactions,
          planName: plans.name,
          planRetiredAt: plans.retiredAt,
          appName: apps.name,
          firstName: accounts.firstName,
          lastName: accounts.lastName,
          email: accounts.email,
        })
        .from(transactions)
        .innerJoin(apps, eq(apps.id, transactions.appId))
        .innerJoin(accounts, eq(accounts.id, transactions.accountId))
        .leftJoin(plans, eq(plans.id, transactions.planId))
        .where(where)
        .orderBy(desc(transactions.createdAt), desc(transactions.id))
        .limit(page.limit)
        .offset(page.offset),
      db.select({ value: count() }).from(transactions).where(where),
    ]);
    return {
      rows: rows.map(({ t, planName, planRetiredAt, appName, firstName, lastName, email }) => ({
        _id: t.id,
        currency: t.currency,
        amount: t.amount,
        // SPEC §8 'Plan was removed': a deleted or retired plan leaves its transactions without one.
        plan: t.planId && planName && !planRetiredAt ? { _id: t.planId, name: planName } : null,
        app: { _id: t.appId, name: appName },
        user: { first_name: firstName, last_name: lastName, email },
        transactionRefrence: t.reference,
        transactionStatus: t.transactionStatus,
        confirmedStatus: t.confirmedStatus,
        isUpcoming: t.isUpcoming,
        createdAt: t.createdAt.toISOString(),
      })),
      count: total?.value ?? 0,
    };
  }

  return {
    current: (appId: string) => latest(appId, false),
    upcoming: (appId: string) => latest(appId, true),

    /** The app's transactions, newest first. */
    transactions: (appId: string, page: Page) => transactionsWhere(eq(transactions.appId, appId), page),
    /** admin/fetch_transactions: every app's, newest first. */
    allTransactions: (page: Page) => transactionsWhere(undefined, page),

    async transactionByReference(reference: string): Promise<Transaction | null> {
      const { rows } = await transactionsWhere(eq(transactions.reference, reference), {
        page: 1,
        limit: 1,
        offset: 0,
      });
      return rows[0] ?? null;
    },

    async byId(id: string): Promise<Subscription | null> {
      const [row] = await subscriptionsWithApp().where(eq(subscriptions.id, id));
      return row ? toSubscription(row) : null;
    },

    /** admin/fetch_subscriptions: every app's, newest first. */
    async allSubscriptions(page: Page): Promise<{ rows: Subscription[]; count: number }> {
      const now = new Date();
      const [rows, [total]] = await Promise.all([
        subscriptionsWithApp()
          .orderBy(desc(subscriptions.createdAt), desc(subscriptions.id))
          .limit(page.limit)
          .offset(page.offset),
        db.select({ value: count() }).from(subscriptions),
      ]);
      return {
        rows: rows.map((row) => toSubscription(row, now)),
        count: total?.value ?? 0,
      };
    },
  };
}

export type SubscriptionsService = ReturnType<typeof createSubscriptionsService>;

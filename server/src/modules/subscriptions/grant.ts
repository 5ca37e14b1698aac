// DESIGN §4: the one place a paid order becomes a subscription. It runs inside the payment's own database
// transaction, after the app's row is locked, so two payments of one app are decided one after the other.
import { eq } from 'drizzle-orm';
import { TERM_MONTHS, addMonths, mayTakeCredit, startOf, type Entitlements } from '@afrofx/shared';
import type { Database } from '../../db/client';
import { apps, paymentOrders, subscriptions } from '../../db/schema';
import { runningPlans } from './subscriptions.repository';
import { currentUsage } from './subscriptions.service';

type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

export interface PaidOrder {
  /** The order being settled (absent for a plan granted without one, such as a free plan). */
  id?: string;
  appId: string;
  planId: string | null;
  planName: string;
  requestLimit: number;
  entitlements: Entitlements | null;
  /** Dollars a term as sold (0: a free plan). */
  planAmount: number | null;
  /** An upgrade: the subscription it ends the moment it starts, whose unused term it was credited. */
  replacesSubscriptionId?: string | null;
}

/**
 * What a paid order starts: a plan now, one after the current one, or nothing: it would stack a second upcoming
 * plan, or it was priced with a credit that another order has spent or holds.
 */
export type SubscriptionStart =
  | { kind: 'started'; subscriptionId: string; upcoming: boolean }
  | { kind: 'would-stack' }
  | { kind: 'credit-spent' };

/** The orders that claim the credit of one subscription's unused term (read under the app's lock). */
async function creditClaims(tx: Transaction, subscriptionId: string) {
  return tx
    .select({ orderId: paymentOrders.id, status: paymentOrders.status })
    .from(paymentOrders)
    .where(eq(paymentOrders.replacesSubscriptionId, subscriptionId));
}

/** Starts the plan a paid order bought, by the shared startOf rule the checkout previewed it with. */
export async function grant(tx: Transaction, order: PaidOrder, now: Date): Promise<SubscriptionStart> {
  await tx.select({ id: apps.id }).from(apps).where(eq(apps.id, order.appId)).for('update');
  if (order.replacesSubscriptionId && order.id) {
    const claims = await creditClaims(tx, order.replacesSubscriptionId);
    if (!mayTakeCredit(order.id, claims)) return { kind: 'credit-spent' };
  }
  const running = await runningPlans(tx, order.appId, now);
  const upcoming = running.find((row) => row.status === 'upcoming');
  const latest = running.find((row) => row.status !== 'upcoming');
  const current = latest ? { ...latest, status: currentUsage(latest, now).status } : null;
  const start = startOf(
    { replacesCurrent: Boolean(latest && latest.id === order.replacesSubscriptionId) },
    { current, upcoming },
    now,
  );
  if (start.kind === 'would-stack') return start;
  // An upgrade ends the plan it was priced against (its unused term was credited), so two plans never serve at once.
  // Ended meanwhile, the upgrade starts like any purchase.
  if (latest && latest.id === order.replacesSubscriptionId) {
    await tx
      .update(subscriptions)
      .set({ status: 'upgraded', expireAt: now })
      .where(eq(subscriptions.id, latest.id));
  }
  const startsAt = start.kind === 'upcoming' ? start.startsAt : now;
  const [subscription] = await tx
    .insert(subscriptions)
    .values({
      appId: order.appId,
      planId: order.planId,
      planName: order.planName,
      status: start.kind === 'upcoming' ? 'upcoming' : 'active',
      requestLimit: order.requestLimit,
      entitlements: order.entitlements,
      amount: order.planAmount,
      startsAt,
      expireAt: addMonths(startsAt, TERM_MONTHS),
    })
    .returning({ id: subscriptions.id });
  return { kind: 'started', subscriptionId: subscription!.id, upcoming: start.kind === 'upcoming' };
}

// DESIGN §4: the one place a paid order becomes a subscription. It runs inside the payment's own database
// transaction, after the app's row is locked, so two payments of one app are decided one after the other.
import { and, desc, eq, gt, inArray } from 'drizzle-orm';
import { TERM_MONTHS, addMonths, type Entitlements } from '@afrofx/shared';
import type { Database } from '../../db/client';
import { apps, subscriptions } from '../../db/schema';
import { currentUsage } from './subscriptions.service';

type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

export interface PaidOrder {
  appId: string;
  planId: string | null;
  planName: string;
  requestLimit: number;
  entitlements: Entitlements | null;
  /** Dollars a term as sold (0: a free plan). */
  planAmount: number | null;
  /** An upgrade: the subscription it ends the moment it starts. */
  replacesSubscriptionId?: string | null;
}

/** What a paid order starts: a plan now, one after the current one, or nothing (it would stack a second upcoming). */
export type SubscriptionStart =
  { kind: 'started'; subscriptionId: string; upcoming: boolean } | { kind: 'would-stack' };

export async function startFromOrder(
  tx: Transaction,
  order: PaidOrder,
  now: Date,
): Promise<SubscriptionStart> {
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
  // SPEC §4: at most one upcoming plan, however payments interleave.
  if (running.some((row) => row.status === 'upcoming')) return { kind: 'would-stack' };
  // Issue 20: an upgrade ends the plan it was priced against (its unused term was credited) and starts now, so two
  // plans never serve at once. Ended meanwhile, the upgrade starts like any purchase.
  const replaced = running.find((row) => row.id === order.replacesSubscriptionId);
  if (replaced) {
    await tx
      .update(subscriptions)
      .set({ status: 'expired', expireAt: now })
      .where(eq(subscriptions.id, replaced.id));
  }
  // DESIGN §4: a plan still serving (not exhausted) is followed, not cut short: the new one is `upcoming` and
  // starts when the last one ends. An exhausted or expired plan is replaced at once.
  const others = running.filter((row) => row !== replaced);
  const serving = others.find((row) => currentUsage(row, now).status !== 'exhausted');
  const startsAt = serving ? others[0]!.expireAt : now;
  const upcoming = startsAt > now;
  const [subscription] = await tx
    .insert(subscriptions)
    .values({
      appId: order.appId,
      planId: order.planId,
      planName: order.planName,
      status: upcoming ? 'upcoming' : 'active',
      requestLimit: order.requestLimit,
      entitlements: order.entitlements,
      amount: order.planAmount,
      startsAt,
      expireAt: addMonths(startsAt, TERM_MONTHS),
    })
    .returning({ id: subscriptions.id });
  return { kind: 'started', subscriptionId: subscription!.id, upcoming };
}

// Who may start a webhook attempt now. The webhooks lane is shared by every account, and a receiver may hang for
// the whole timeout, so a claim is refused unless the endpoint, its app and its account are all under their share:
// - an endpoint has one delivery in flight (its FIFO order);
// - an app has at most WEBHOOK_APP_IN_FLIGHT over its endpoints;
// - an account has at most WEBHOOK_ACCOUNT_IN_FLIGHT over its apps, so one account with many apps whose receivers
//   hang holds only that many of the lane's slots;
// - accounts take turns: an account that already has a delivery in flight lets an account with none go first. Its
//   job asks again a moment later (TURN_WAIT_MS); by then the waiting account has had its turn.
// The rules live in the database rows, so they hold alike on the database queue and on BullMQ.
import { and, eq, gt, lt, lte, ne, or, isNull, sql, type SQL } from 'drizzle-orm';
import type { WebhookSettings } from '../../settings';
import type { Database } from '../../db/client';
import { accounts, apps, webhookDeliveries, webhookEndpoints } from '../../db/schema';

/** How soon an account that gave its turn to another asks again. */
export const TURN_WAIT_MS = 500;

type EndpointRow = typeof webhookEndpoints.$inferSelect;
type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/** A delivery a sender may take now: due, or left mid-attempt by a sender whose lease has passed. */
export const deliveryDue = (now: Date) =>
  or(
    and(eq(webhookDeliveries.state, 'pending'), lte(webhookDeliveries.nextAttemptAt, now)),
    and(eq(webhookDeliveries.state, 'sending'), lt(webhookDeliveries.lockedUntil, now)),
  );

/** An endpoint that may start an attempt now: none in flight, and not parked (or parked past its cool-down). */
export const endpointFree = (now: Date, cooldownMs: number): SQL =>
  and(
    or(isNull(webhookEndpoints.sendingUntil), lt(webhookEndpoints.sendingUntil, now)),
    or(
      eq(webhookEndpoints.state, 'active'),
      lte(webhookEndpoints.parkedAt, new Date(now.getTime() - cooldownMs)),
    ),
  )!;

/**
 * Whether another account than this one has a delivery due on a free endpoint and nothing in flight: it is that
 * account's turn. Written with aliases of its own: it reads the endpoints and apps tables at three levels.
 */
const anotherAccountWaits = (accountId: string, now: Date, cooldownMs: number): SQL => {
  const at = sql`${now.toISOString()}::timestamptz`;
  const cooledSince = sql`${new Date(now.getTime() - cooldownMs).toISOString()}::timestamptz`;
  return sql`exists (
    select 1 from webhook_endpoints e
    inner join apps a on a.id = e.app_id
    where a.account_id <> ${accountId}
      and (e.sending_until is null or e.sending_until < ${at})
      and (e.state = 'active' or e.parked_at <= ${cooledSince})
      and exists (
        select 1 from webhook_deliveries d
        where d.endpoint_id = e.id
          and ((d.state = 'pending' and d.next_attempt_at <= ${at}) or (d.state = 'sending' and d.locked_until < ${at}))
      )
      and not exists (
        select 1 from webhook_endpoints busy
        inner join apps busy_app on busy_app.id = busy.app_id
        where busy_app.account_id = a.account_id and busy.sending_until > ${at}
      )
  )`;
};

export type Claim =
  | { claimed: DeliveryRow; endpoint: EndpointRow }
  /** Busy, parked, held by a cap, or nothing due: the attempt in flight queues the next when it settles. */
  | { held: true }
  /** Another account's turn: the job asks again after TURN_WAIT_MS. */
  | { yielded: true };

export function createWebhookClaim(db: Database, settings: WebhookSettings) {
  /**
   * Takes the endpoint's oldest due delivery when the endpoint, its app and its account may start an attempt now.
   * The endpoint row is locked with SKIP LOCKED, so of two senders one claims and the other ends; the account row is
   * locked so that two endpoints of one account count each other.
   */
  return async function claimNext(endpointId: string): Promise<Claim> {
    return db.transaction(async (tx): Promise<Claim> => {
      const now = new Date();
      const [endpoint] = await tx
        .select()
        .from(webhookEndpoints)
        .where(and(eq(webhookEndpoints.id, endpointId), endpointFree(now, settings.parkCooldownMs)))
        .for('update', { skipLocked: true });
      if (!endpoint) return { held: true };
      const [owner] = await tx
        .select({ accountId: apps.accountId })
        .from(apps)
        .where(eq(apps.id, endpoint.appId));
      if (!owner) return { held: true };
      await tx
        .select({ id: accounts.id })
        .from(accounts)
        .where(eq(accounts.id, owner.accountId))
        .for('update');
      const inFlight = await tx
        .select({ appId: webhookEndpoints.appId })
        .from(webhookEndpoints)
        .innerJoin(apps, eq(apps.id, webhookEndpoints.appId))
        .where(
          and(
            eq(apps.accountId, owner.accountId),
            ne(webhookEndpoints.id, endpoint.id),
            gt(webhookEndpoints.sendingUntil, now),
          ),
        );
      const ofApp = inFlight.filter((row) => row.appId === endpoint.appId).length;
      if (ofApp >= settings.appInFlight || inFlight.length >= settings.accountInFlight) return { held: true };
      const [next] = await tx
        .select({ id: webhookDeliveries.id })
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.endpointId, endpoint.id), deliveryDue(now)))
        .orderBy(webhookDeliveries.createdAt, webhookDeliveries.id)
        .limit(1)
        .for('update', { skipLocked: true });
      if (!next) return { held: true };
      if (inFlight.length > 0) {
        const [turn] = await tx
          .select({
            waits: sql<boolean>`${anotherAccountWaits(owner.accountId, now, settings.parkCooldownMs)}`,
          })
          .from(accounts)
          .where(eq(accounts.id, owner.accountId));
        if (turn?.waits) return { yielded: true };
      }
      const lease = new Date(now.getTime() + settings.timeoutMs + 30_000);
      const [claimed] = await tx
        .update(webhookDeliveries)
        .set({ state: 'sending', attempts: sql`${webhookDeliveries.attempts} + 1`, lockedUntil: lease })
        .where(eq(webhookDeliveries.id, next.id))
        .returning();
      await tx
        .update(webhookEndpoints)
        .set({ sendingDeliveryId: next.id, sendingUntil: lease })
        .where(eq(webhookEndpoints.id, endpoint.id));
      return { claimed: claimed!, endpoint };
    });
  };
}

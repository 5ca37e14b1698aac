// The delivery engine. Each endpoint is a FIFO with one delivery in flight: a job names an endpoint and claims its
// oldest due delivery only if the endpoint is free and its app and account are under their caps and in their turn
// (webhook-claim.ts); a busy endpoint's job ends at once, and the attempt in flight queues the next when it settles.
// A sender that died leaves a lease that passes, so the delivery is taken up again (receivers deduplicate on the
// AfroFX-Delivery id). Failures in a row park the endpoint (the circuit) until the developer resumes it or a trial
// attempt after a cool-down succeeds.
import { and, eq, sql } from 'drizzle-orm';
import type { WebhookSettings } from '../../settings';
import type { Database } from '../../db/client';
import { apps, webhookDeliveries, webhookDeliveryAttempts, webhookEndpoints } from '../../db/schema';
import { DomainError } from '../../errors';
import type { Enqueue } from '../../queue/enqueue';
import type { Executor } from './rate-events';
import { createWebhookClaim, deliveryDue, endpointFree, TURN_WAIT_MS } from './webhook-claim';
import { checkTarget, postTo, signatureHeader, type PostResult } from './webhook-target';

/** Retries stop this long after the event: the last attempt is made at the end of the window. */
export const RETRY_WINDOW_MS = 24 * 60 * 60 * 1000;
const SWEEP_BATCH = 500;

type EndpointRow = typeof webhookEndpoints.$inferSelect;
type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/** The secrets deliveries are signed with now: the current one, and the one it replaced while its overlap lasts. */
function secretsInForce(
  endpoint: { secret: string; previousSecret: string | null; previousSecretExpiresAt: Date | null },
  now: Date,
): string[] {
  const previousValid =
    endpoint.previousSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now;
  return previousValid ? [endpoint.secret, endpoint.previousSecret!] : [endpoint.secret];
}

export function createDelivery(db: Database, enqueue: Enqueue, settings: WebhookSettings) {
  const claimNext = createWebhookClaim(db, settings);

  /**
   * Asks the queue to send the endpoints' next deliveries; a queue that is away is no loss (the sweep queues them
   * later). No job id: a job finding its endpoint busy ends at once, so a duplicate costs one query.
   */
  async function wake(endpointIds: Iterable<string>, delayMs?: number): Promise<void> {
    await Promise.all(
      [...new Set(endpointIds)].map((endpointId) =>
        enqueue('webhook-delivery', { endpointId }, delayMs ? { delayMs } : undefined).catch(() => {}),
      ),
    );
  }

  const dispatch = (deliveries: Array<{ endpointId: string }>) => wake(deliveries.map((d) => d.endpointId));

  /**
   * The endpoints of the app's account that could start an attempt now and have one due (those its app's or its
   * account's cap held back, too).
   */
  async function wakeAccountOf(appId: string): Promise<void> {
    const now = new Date();
    const rows = await db
      .select({ id: webhookEndpoints.id })
      .from(webhookEndpoints)
      .innerJoin(apps, eq(apps.id, webhookEndpoints.appId))
      .where(
        and(
          eq(apps.accountId, sql`(select ${apps.accountId} from ${apps} where ${apps.id} = ${appId})`),
          endpointFree(now, settings.parkCooldownMs),
          sql`exists (select 1 from ${webhookDeliveries} where ${webhookDeliveries.endpointId} = ${webhookEndpoints.id} and ${deliveryDue(now)})`,
        ),
      );
    await wake(rows.map((r) => r.id));
  }

  /**
   * Records one attempt's outcome, unless another sender took the delivery over meanwhile; frees the endpoint, moves
   * its circuit, and queues what comes next: the endpoint's next delivery (or its trial after the cool-down), the
   * account's endpoints its caps held back, and this delivery's retry.
   */
  async function settle(claimed: DeliveryRow, appId: string, result: PostResult, latencyMs: number) {
    const now = new Date();
    const succeeded = result.error === null;
    const deadline = claimed.createdAt.getTime() + RETRY_WINDOW_MS;
    const retryAt = Math.min(now.getTime() + settings.retryBaseMs * 2 ** (claimed.attempts - 1), deadline);
    const state = succeeded ? 'succeeded' : now.getTime() >= deadline ? 'failed' : 'pending';
    const outcome = await db.transaction(async (tx) => {
      // The endpoint first, then its delivery: the order a claim and an endpoint's deletion take them in.
      const [endpoint] = await tx
        .select()
        .from(webhookEndpoints)
        .where(eq(webhookEndpoints.id, claimed.endpointId))
        .for('update');
      if (!endpoint) return undefined;
      const rows = await tx
        .update(webhookDeliveries)
        .set({
          state,
          lockedUntil: null,
          lastStatusCode: result.statusCode,
          lastLatencyMs: latencyMs,
          lastError: result.error,
          deliveredAt: succeeded ? now : null,
          nextAttemptAt: state === 'pending' ? new Date(retryAt) : claimed.nextAttemptAt,
        })
        .where(
          and(
            eq(webhookDeliveries.id, claimed.id),
            eq(webhookDeliveries.state, 'sending'),
            eq(webhookDeliveries.attempts, claimed.attempts),
          ),
        )
        .returning({ id: webhookDeliveries.id });
      if (rows.length === 0) return undefined;
      await tx
        .insert(webhookDeliveryAttempts)
        .values({
          deliveryId: claimed.id,
          attempt: claimed.attempts,
          statusCode: result.statusCode,
          latencyMs,
          error: result.error,
          createdAt: now,
        })
        .onConflictDoNothing();
      return { parked: await moveCircuit(tx, endpoint, claimed, result, now) };
    });
    if (!outcome) return;
    await (outcome.parked ? wake([claimed.endpointId], settings.parkCooldownMs) : wakeAccountOf(appId));
    if (state === 'pending') await wake([claimed.endpointId], retryAt - now.getTime());
  }

  /**
   * Frees the endpoint of this attempt and moves its circuit: a success closes it, a failure counts, and the
   * failure that reaches the limit (or a failed trial) parks it. Returns whether the endpoint is parked now.
   */
  async function moveCircuit(
    tx: Executor,
    endpoint: EndpointRow,
    claimed: DeliveryRow,
    result: PostResult,
    now: Date,
  ) {
    // The lease is this claim's own: a sender that took the endpoint over after it passed keeps its marker.
    const ours = endpoint.sendingUntil?.getTime() === claimed.lockedUntil?.getTime();
    const freed = ours ? { sendingDeliveryId: null, sendingUntil: null } : {};
    if (result.error === null) {
      await tx
        .update(webhookEndpoints)
        .set({ ...freed, state: 'active', consecutiveFailures: 0, parkedAt: null, parkedReason: null })
        .where(eq(webhookEndpoints.id, endpoint.id));
      return false;
    }
    const failures = endpoint.consecutiveFailures + 1;
    const parks = endpoint.state === 'parked' || failures >= settings.parkAfterFailures;
    await tx
      .update(webhookEndpoints)
      .set({
        ...freed,
        consecutiveFailures: failures,
        ...(parks
          ? {
              state: 'parked' as const,
              parkedAt: now,
              parkedReason: `${failures} attempts in a row failed; the last: ${result.error}`,
            }
          : {}),
      })
      .where(eq(webhookEndpoints.id, endpoint.id));
    return parks;
  }

  return {
    dispatch,
    wakeAccountOf,

    /**
     * The webhook-delivery job: one attempt of the endpoint's oldest due delivery, if the endpoint is free. Returns
     * whether an attempt was made.
     */
    async deliverNext(endpointId: string): Promise<boolean> {
      const taken = await claimNext(endpointId);
      if ('yielded' in taken) {
        // The endpoint gave its turn, not its place: its next ask must be queued. If the queue cannot take it now,
        // this job fails and its retry asks instead.
        await enqueue('webhook-delivery', { endpointId }, { delayMs: TURN_WAIT_MS });
        return false;
      }
      if (!('claimed' in taken)) return false;
      const { claimed, endpoint } = taken;
      const started = performance.now();
      let result: PostResult;
      try {
        // Checked again at each attempt: the name may resolve elsewhere now than at registration.
        const target = await checkTarget(endpoint.url, settings.allowPrivateTargets);
        const body = JSON.stringify(claimed.payload);
        result = await postTo(
          target,
          body,
          {
            'content-type': 'application/json',
            'user-agent': 'AfroFX-Webhooks/1.0',
            'afrofx-event': claimed.event,
            'afrofx-delivery': claimed.id,
            'afrofx-signature': signatureHeader(
              secretsInForce(endpoint, new Date()),
              body,
              Math.floor(Date.now() / 1000),
            ),
          },
          settings.timeoutMs,
        );
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        result = { statusCode: null, error: err.message };
      }
      await settle(claimed, endpoint.appId, result, Math.round((performance.now() - started) * 10) / 10);
      return true;
    },

    /**
     * The sweep job: queues every endpoint that has a delivery due and could send it now, e.g. one recorded while
     * the queue was away, a retry whose job was lost, or one left by a sender that died. Returns how many.
     */
    async sweep(now = new Date()): Promise<number> {
      const due = await db
        .select({ id: webhookEndpoints.id })
        .from(webhookEndpoints)
        .where(
          and(
            endpointFree(now, settings.parkCooldownMs),
            sql`exists (select 1 from ${webhookDeliveries} where ${webhookDeliveries.endpointId} = ${webhookEndpoints.id} and ${deliveryDue(now)})`,
          ),
        )
        .limit(SWEEP_BATCH);
      await Promise.all(due.map(({ id }) => enqueue('webhook-delivery', { endpointId: id })));
      return due.length;
    },
  };
}

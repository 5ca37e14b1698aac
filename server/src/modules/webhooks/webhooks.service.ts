// Webhooks (issue 10 point 4): endpoints per app, the deliveries a rate entry causes, and their sending.
//
// Durability: a rate entry writes its deliveries in its own transaction (an outbox), then asks the queue to send
// them. If the queue is away at that moment the rate is still accepted; the sweep job (every minute) queues every
// endpoint that has a delivery due and that no sender holds. A sender that died mid-attempt leaves a lease that
// passes, and the delivery is taken up again (receivers deduplicate on the AfroFX-Delivery id, as with any
// at-least-once webhook).
//
// Isolation (issue 21): each endpoint is a FIFO with one delivery in flight. A job names an endpoint, not a
// delivery; it claims the endpoint's oldest due delivery only if the endpoint has none in flight (the endpoint row,
// locked with SKIP LOCKED, carries the in-flight delivery and its lease) and the app is under its cap of deliveries
// in flight. A job that finds the endpoint busy ends at once and queues nothing: the attempt in flight, when it
// settles, queues the endpoint's next one. Repeated failures in a row park the endpoint (the circuit): its
// deliveries are kept and wait for the developer to resume it, or for a trial attempt after a cool-down.
import { randomBytes, randomUUID } from 'node:crypto';
import { and, count, desc, eq, gt, inArray, isNull, lt, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import {
  cheapestPlanOpening,
  entitlementGap,
  entitlementRefusal,
  MAX_WEBHOOK_ENDPOINTS,
  type QuoteWithoutAge,
  type CreateWebhookInput,
  type WebhookDelivery,
  type WebhookDeliveryEvent,
  type WebhookEndpoint,
  type WebhookEndpointWithSecret,
  type WebhookThreshold,
} from '@afrofx/shared';
import type { WebhookSettings } from '../../config';
import type { Database } from '../../db/client';
import {
  accounts,
  apps,
  plans,
  rates,
  subscriptions,
  webhookDeliveries,
  webhookDeliveryAttempts,
  webhookEndpoints,
  webhookThresholds,
} from '../../db/schema';
import { DomainError, badRequest, notFound } from '../../errors';
import type { Page } from '../../http';
import type { Enqueue } from '../../jobs/enqueue';
import { checkTarget, postTo, signatureHeader, type PostResult } from './webhook-target';

/** The rate entry's transaction, or the database itself. */
export type Executor = Pick<Database, 'select' | 'insert' | 'update'>;

/** Retries stop this long after the event: the last attempt is made at the end of the window. */
export const RETRY_WINDOW_MS = 24 * 60 * 60 * 1000;
const SWEEP_BATCH = 500;

const NO_PLAN = 'Webhooks need an active plan. Buy a plan for this app to register endpoints.';
const ENDPOINT_NOT_FOUND = 'Webhook endpoint not found.';

type EndpointRow = typeof webhookEndpoints.$inferSelect;
type ThresholdRow = typeof webhookThresholds.$inferSelect;
type DeliveryRow = typeof webhookDeliveries.$inferSelect;

// Not whsec_: that prefix promises the Standard Webhooks scheme (base64 key, id.timestamp.body), which this is not.
const SECRET_PREFIX = 'afxsig_';
const newSecret = () => `${SECRET_PREFIX}${randomBytes(24).toString('base64url')}`;
const secretHint = (secret: string) =>
  `${secret.startsWith(SECRET_PREFIX) ? SECRET_PREFIX : 'whsec_'}${'•'.repeat(24)}${secret.slice(-4)}`;
/** How long a rotated-out secret keeps signing deliveries (Stripe's default overlap is 24 hours as well). */
export const SECRET_OVERLAP_MS = 24 * 3_600_000;

/** The secrets deliveries are signed with now: the current one, and the one it replaced while its overlap lasts. */
function secretsInForce(
  endpoint: { secret: string; previousSecret: string | null; previousSecretExpiresAt: Date | null },
  now: Date,
): string[] {
  const previousValid =
    endpoint.previousSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now;
  return previousValid ? [endpoint.secret, endpoint.previousSecret!] : [endpoint.secret];
}
const iso = (date: Date | null) => (date ? date.toISOString() : null);

const toThreshold = (row: ThresholdRow): WebhookThreshold => ({
  _id: row.id,
  market: row.market,
  base: row.base,
  asset: row.asset,
  side: row.side,
  level: row.level,
  lastPosition: row.lastPosition,
});

const toEndpoint = (row: EndpointRow, thresholds: ThresholdRow[], cooldownMs: number): WebhookEndpoint => ({
  _id: row.id,
  url: row.url,
  events: row.events,
  markets: row.markets,
  pairs: row.pairs,
  thresholds: thresholds.map(toThreshold),
  secretHint: secretHint(row.secret),
  createdAt: row.createdAt.toISOString(),
  secretRotatedAt: iso(row.secretRotatedAt),
  state: row.state,
  parkedAt: row.state === 'parked' ? iso(row.parkedAt) : null,
  parkedReason: row.state === 'parked' ? row.parkedReason : null,
  retryAt:
    row.state === 'parked' && row.parkedAt
      ? new Date(row.parkedAt.getTime() + cooldownMs).toISOString()
      : null,
});

/** A delivery a sender may take now: due, or left mid-attempt by a sender whose lease has passed. */
const deliveryDue = (now: Date) =>
  or(
    and(eq(webhookDeliveries.state, 'pending'), lte(webhookDeliveries.nextAttemptAt, now)),
    and(eq(webhookDeliveries.state, 'sending'), lt(webhookDeliveries.lockedUntil, now)),
  );

/** An endpoint that may start an attempt now: none in flight, and not parked (or parked past its cool-down). */
const endpointFree = (now: Date, cooldownMs: number): SQL =>
  and(
    or(isNull(webhookEndpoints.sendingUntil), lt(webhookEndpoints.sendingUntil, now)),
    or(
      eq(webhookEndpoints.state, 'active'),
      lte(webhookEndpoints.parkedAt, new Date(now.getTime() - cooldownMs)),
    ),
  )!;

/** A price's side of a level; on the level itself it stays where it was (touching is not crossing). */
function positionOf(price: number, level: number, last: 'above' | 'below' | null) {
  if (price > level) return 'above' as const;
  if (price < level) return 'below' as const;
  return last;
}

/** An app may use webhooks while it may use the paid API: an active plan in its window, or a premium account. */
const hasPlan = (now: Date) => sql<boolean>`(
  ${accounts.state} = 'premium_customer' or exists (
    select 1 from ${subscriptions}
    where ${subscriptions.appId} = ${apps.id}
      and ${subscriptions.status} in ('active', 'exhausted', 'upcoming')
      and ${subscriptions.startsAt} <= ${now} and ${subscriptions.expireAt} > ${now}
  )
)`;

export function createWebhooksService(db: Database, enqueue: Enqueue, settings: WebhookSettings) {
  const endpointOut = (row: EndpointRow, thresholds: ThresholdRow[]) =>
    toEndpoint(row, thresholds, settings.parkCooldownMs);

  async function requirePlan(appId: string) {
    const now = new Date();
    const [row] = await db
      .select({ allowed: hasPlan(now), premium: sql<boolean>`${accounts.state} = 'premium_customer'` })
      .from(apps)
      .innerJoin(accounts, eq(accounts.id, apps.accountId))
      .where(eq(apps.id, appId));
    if (!row?.allowed) throw new DomainError(402, NO_PLAN);
    if (row.premium) return;
    // Issue 20: the plan serving now must open webhooks (one bought before entitlements existed opens everything).
    const [serving] = await db
      .select({ planName: subscriptions.planName, entitlements: subscriptions.entitlements })
      .from(subscriptions)
      .where(
        and(
          eq(subscriptions.appId, appId),
          inArray(subscriptions.status, ['active', 'exhausted', 'upcoming']),
          lte(subscriptions.startsAt, now),
          gt(subscriptions.expireAt, now),
        ),
      )
      .orderBy(desc(subscriptions.startsAt))
      .limit(1);
    const gap = serving?.entitlements && entitlementGap(serving.entitlements, { endpoint: 'webhooks' });
    if (!serving || !gap) return;
    const onSale = await db
      .select({ name: plans.name, amount: plans.amount, entitlements: plans.entitlements })
      .from(plans)
      .where(isNull(plans.retiredAt));
    throw new DomainError(
      403,
      entitlementRefusal(serving.planName, gap, cheapestPlanOpening(onSale, { endpoint: 'webhooks' })),
    );
  }

  async function endpointOf(appId: string, endpointId: string): Promise<EndpointRow> {
    const [row] = await db
      .select()
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.appId, appId)));
    if (!row) throw notFound(ENDPOINT_NOT_FOUND);
    return row;
  }

  async function thresholdsOf(endpointIds: string[]): Promise<ThresholdRow[]> {
    if (endpointIds.length === 0) return [];
    return db
      .select()
      .from(webhookThresholds)
      .where(inArray(webhookThresholds.endpointId, endpointIds))
      .orderBy(webhookThresholds.createdAt, webhookThresholds.id);
  }

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

  /** The app's endpoints that could start an attempt now and have one due (those its cap held back, too). */
  async function wakeApp(appId: string): Promise<void> {
    const now = new Date();
    const rows = await db
      .select({ id: webhookEndpoints.id })
      .from(webhookEndpoints)
      .where(
        and(
          eq(webhookEndpoints.appId, appId),
          endpointFree(now, settings.parkCooldownMs),
          sql`exists (select 1 from ${webhookDeliveries} where ${webhookDeliveries.endpointId} = ${webhookEndpoints.id} and ${deliveryDue(now)})`,
        ),
      );
    await wake(rows.map((r) => r.id));
  }

  /**
   * Takes the endpoint's oldest due delivery, if the endpoint has none in flight, may send (not parked, or past its
   * cool-down: the trial) and its app is under its cap. The endpoint row is locked with SKIP LOCKED, so of two
   * senders one claims and the other ends; the app row is locked so two endpoints of one app count each other.
   */
  async function claimNext(
    endpointId: string,
  ): Promise<{ claimed: DeliveryRow; endpoint: EndpointRow } | undefined> {
    return db.transaction(async (tx) => {
      const now = new Date();
      const [endpoint] = await tx
        .select()
        .from(webhookEndpoints)
        .where(and(eq(webhookEndpoints.id, endpointId), endpointFree(now, settings.parkCooldownMs)))
        .for('update', { skipLocked: true });
      if (!endpoint) return undefined;
      await tx.select({ id: apps.id }).from(apps).where(eq(apps.id, endpoint.appId)).for('update');
      const [inFlight] = await tx
        .select({ n: count() })
        .from(webhookEndpoints)
        .where(
          and(
            eq(webhookEndpoints.appId, endpoint.appId),
            ne(webhookEndpoints.id, endpoint.id),
            gt(webhookEndpoints.sendingUntil, now),
          ),
        );
      if ((inFlight?.n ?? 0) >= settings.appInFlight) return undefined;
      const [next] = await tx
        .select({ id: webhookDeliveries.id })
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.endpointId, endpoint.id), deliveryDue(now)))
        .orderBy(webhookDeliveries.createdAt, webhookDeliveries.id)
        .limit(1)
        .for('update', { skipLocked: true });
      if (!next) return undefined;
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
  }

  function deliveryRow(endpointId: string, event: WebhookDeliveryEvent, data: object, now: Date) {
    const id = randomUUID();
    return {
      id,
      endpointId,
      event,
      payload: { id, type: event, createdAt: now.toISOString(), data },
      nextAttemptAt: now,
      createdAt: now,
    };
  }

  async function attemptLogs(ids: string[]) {
    if (ids.length === 0) return new Map<string, WebhookDelivery['attemptLog']>();
    const rows = await db
      .select()
      .from(webhookDeliveryAttempts)
      .where(inArray(webhookDeliveryAttempts.deliveryId, ids))
      .orderBy(webhookDeliveryAttempts.deliveryId, webhookDeliveryAttempts.attempt);
    const byDelivery = new Map<string, WebhookDelivery['attemptLog']>();
    for (const row of rows) {
      const log = byDelivery.get(row.deliveryId) ?? [];
      log.push({
        attempt: row.attempt,
        responseCode: row.statusCode,
        latencyMs: row.latencyMs,
        error: row.error,
        createdAt: row.createdAt.toISOString(),
      });
      byDelivery.set(row.deliveryId, log);
    }
    return byDelivery;
  }

  const toDelivery = (row: DeliveryRow, attemptLog: WebhookDelivery['attemptLog']): WebhookDelivery => ({
    _id: row.id,
    event: row.event,
    state: row.state,
    attempts: row.attempts,
    responseCode: row.lastStatusCode,
    latencyMs: row.lastLatencyMs,
    error: row.lastError,
    nextAttemptAt: row.state === 'pending' ? row.nextAttemptAt.toISOString() : null,
    deliveredAt: iso(row.deliveredAt),
    createdAt: row.createdAt.toISOString(),
    attemptLog,
  });

  /**
   * Records one attempt's outcome, unless another sender took the delivery over meanwhile; frees the endpoint, moves
   * its circuit, and queues what comes next: the endpoint's next delivery (or its trial after the cool-down), the
   * app's endpoints its cap held back, and this delivery's retry.
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
    await (outcome.parked ? wake([claimed.endpointId], settings.parkCooldownMs) : wakeApp(appId));
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
    async create(appId: string, input: CreateWebhookInput): Promise<WebhookEndpointWithSecret> {
      await requirePlan(appId);
      const thresholds = input.thresholds ?? [];
      const watchesThresholds = input.events.includes('rate.threshold');
      if (watchesThresholds && thresholds.length === 0)
        throw badRequest('rate.threshold needs at least one threshold.');
      if (!watchesThresholds && thresholds.length > 0)
        throw badRequest('thresholds are used only with the rate.threshold event.');
      await checkTarget(input.url, settings.allowPrivateTargets);
      const [existing] = await db
        .select({ n: count() })
        .from(webhookEndpoints)
        .where(eq(webhookEndpoints.appId, appId));
      if ((existing?.n ?? 0) >= MAX_WEBHOOK_ENDPOINTS)
        throw badRequest(`An app may have at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints.`);

      const secret = newSecret();
      const { endpoint, rows } = await db.transaction(async (tx) => {
        const [endpoint] = await tx
          .insert(webhookEndpoints)
          .values({
            appId,
            url: input.url,
            secret,
            events: input.events,
            markets: input.markets ?? [],
            pairs: input.pairs ?? [],
          })
          .returning();
        const rows: ThresholdRow[] = [];
        for (const threshold of thresholds) {
          // Where the price stands now, so that the first crossing is the first that fires.
          const [latest] = await tx
            .select({ buy: rates.buy, sell: rates.sell })
            .from(rates)
            .where(
              and(
                eq(rates.market, threshold.market),
                eq(rates.base, threshold.base),
                eq(rates.asset, threshold.asset),
              ),
            )
            .orderBy(desc(rates.createdAt), desc(rates.id))
            .limit(1);
          const [row] = await tx
            .insert(webhookThresholds)
            .values({
              endpointId: endpoint!.id,
              ...threshold,
              lastPosition: latest ? positionOf(latest[threshold.side], threshold.level, null) : null,
            })
            .returning();
          rows.push(row!);
        }
        return { endpoint: endpoint!, rows };
      });
      return { ...endpointOut(endpoint, rows), secret };
    },

    async list(appId: string): Promise<WebhookEndpoint[]> {
      const rows = await db
        .select()
        .from(webhookEndpoints)
        .where(eq(webhookEndpoints.appId, appId))
        .orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id));
      const thresholds = await thresholdsOf(rows.map((r) => r.id));
      return rows.map((row) =>
        endpointOut(
          row,
          thresholds.filter((t) => t.endpointId === row.id),
        ),
      );
    },

    async remove(appId: string, endpointId: string): Promise<void> {
      const deleted = await db
        .delete(webhookEndpoints)
        .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.appId, appId)))
        .returning({ id: webhookEndpoints.id });
      if (deleted.length === 0) throw notFound(ENDPOINT_NOT_FOUND);
    },

    /**
     * A new secret signs every delivery from now on; the old one signs them too (a second v1) for
     * SECRET_OVERLAP_MS, so receivers can switch without losing a delivery.
     */
    async rotateSecret(appId: string, endpointId: string): Promise<WebhookEndpointWithSecret> {
      const current = await endpointOf(appId, endpointId);
      const secret = newSecret();
      const now = new Date();
      const [row] = await db
        .update(webhookEndpoints)
        .set({
          secret,
          secretRotatedAt: now,
          previousSecret: current.secret,
          previousSecretExpiresAt: new Date(now.getTime() + SECRET_OVERLAP_MS),
        })
        .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.appId, appId)))
        .returning();
      if (!row) throw notFound(ENDPOINT_NOT_FOUND);
      return { ...endpointOut(row, await thresholdsOf([row.id])), secret };
    },

    async sendTest(appId: string, endpointId: string): Promise<WebhookDelivery> {
      await requirePlan(appId);
      await endpointOf(appId, endpointId);
      const [row] = await db
        .insert(webhookDeliveries)
        .values(
          deliveryRow(
            endpointId,
            'webhook.test',
            { message: 'A test event from AfroFX: your endpoint is reachable.' },
            new Date(),
          ),
        )
        .returning();
      await dispatch([row!]);
      return toDelivery(row!, []);
    },

    /** Closes a parked endpoint's circuit: its kept deliveries go out, oldest first. */
    async resume(appId: string, endpointId: string): Promise<WebhookEndpoint> {
      const [row] = await db
        .update(webhookEndpoints)
        .set({ state: 'active', consecutiveFailures: 0, parkedAt: null, parkedReason: null })
        .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.appId, appId)))
        .returning();
      if (!row) throw notFound(ENDPOINT_NOT_FOUND);
      // The developer says the receiver works again: its kept deliveries go now, not at their backed-off retry time.
      await db
        .update(webhookDeliveries)
        .set({ nextAttemptAt: new Date() })
        .where(
          and(
            eq(webhookDeliveries.endpointId, endpointId),
            eq(webhookDeliveries.state, 'pending'),
            gt(webhookDeliveries.nextAttemptAt, new Date()),
          ),
        );
      await wakeApp(appId);
      return endpointOut(row, await thresholdsOf([row.id]));
    },

    async deliveries(
      appId: string,
      endpointId: string,
      page: Page,
    ): Promise<{ rows: WebhookDelivery[]; count: number }> {
      await endpointOf(appId, endpointId);
      const where = eq(webhookDeliveries.endpointId, endpointId);
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(webhookDeliveries)
          .where(where)
          .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
          .limit(page.limit)
          .offset(page.offset),
        db.select({ value: count() }).from(webhookDeliveries).where(where),
      ]);
      const logs = await attemptLogs(rows.map((r) => r.id));
      return { rows: rows.map((r) => toDelivery(r, logs.get(r.id) ?? [])), count: total?.value ?? 0 };
    },

    /**
     * Called inside the rate entry's transaction: moves every threshold of the pair to the rate's side and writes
     * the deliveries the entry causes. The threshold rows are locked, so two entries at once fire a crossing once.
     */
    async recordRateEvents(tx: Executor, rate: QuoteWithoutAge): Promise<Array<{ endpointId: string }>> {
      const now = new Date();
      const endpoints = await tx
        .select({ endpoint: webhookEndpoints })
        .from(webhookEndpoints)
        .innerJoin(apps, eq(apps.id, webhookEndpoints.appId))
        .innerJoin(accounts, eq(accounts.id, apps.accountId))
        .where(and(eq(accounts.status, 'active'), hasPlan(now)));
      const served = new Map(endpoints.map(({ endpoint }) => [endpoint.id, endpoint]));

      const rows: Array<ReturnType<typeof deliveryRow>> = [];
      for (const endpoint of served.values()) {
        if (!endpoint.events.includes('rate.updated')) continue;
        if (endpoint.markets.length > 0 && !endpoint.markets.includes(rate.market)) continue;
        if (
          endpoint.pairs.length > 0 &&
          !endpoint.pairs.some((p) => p.base === rate.base && p.asset === rate.asset)
        )
          continue;
        rows.push(deliveryRow(endpoint.id, 'rate.updated', { rate }, now));
      }

      const thresholds = await tx
        .select()
        .from(webhookThresholds)
        .where(
          and(
            eq(webhookThresholds.market, rate.market),
            eq(webhookThresholds.base, rate.base),
            eq(webhookThresholds.asset, rate.asset),
          ),
        )
        .orderBy(webhookThresholds.id)
        .for('update');
      for (const threshold of thresholds) {
        const price = Number(rate[threshold.side]);
        const position = positionOf(price, threshold.level, threshold.lastPosition);
        if (position === threshold.lastPosition) continue;
        await tx
          .update(webhookThresholds)
          .set({ lastPosition: position })
          .where(eq(webhookThresholds.id, threshold.id));
        // The first known side is a starting point, not a crossing.
        const endpoint = served.get(threshold.endpointId);
        if (threshold.lastPosition === null || !endpoint?.events.includes('rate.threshold')) continue;
        rows.push(
          deliveryRow(
            endpoint.id,
            'rate.threshold',
            {
              rate,
              threshold: {
                ...toThreshold({ ...threshold, lastPosition: position }),
                direction: position === 'above' ? 'up' : 'down',
                price,
              },
            },
            now,
          ),
        );
      }
      if (rows.length > 0) await tx.insert(webhookDeliveries).values(rows);
      return rows.map((r) => ({ endpointId: r.endpointId }));
    },

    dispatch,

    /**
     * The webhook-delivery job: one attempt of the endpoint's oldest due delivery, if the endpoint is free. Returns
     * whether an attempt was made.
     */
    async deliverNext(endpointId: string): Promise<boolean> {
      const taken = await claimNext(endpointId);
      // Busy (its sender queues the next when it settles), parked, held by its app's cap, or nothing due.
      if (!taken) return false;
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

export type WebhooksService = ReturnType<typeof createWebhooksService>;

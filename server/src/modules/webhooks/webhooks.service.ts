// Webhooks (issue 10 point 4): endpoints per app, the deliveries a rate entry causes, and their sending.
//
// Durability: a rate entry writes its deliveries in its own transaction (an outbox), then asks the queue to send
// them. If the queue is away at that moment the rate is still accepted; the sweep job (every minute) queues every
// delivery that is due and that no job took. Sending is guarded by a conditional claim (pending → sending with a
// lease), so two jobs for one delivery send it once; a sender that died mid-attempt leaves a lease that passes,
// and the delivery is taken up again (receivers deduplicate on the AfroFX-Delivery id, as with any at-least-once
// webhook).
import { randomBytes, randomUUID } from 'node:crypto';
import { and, count, desc, eq, gt, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
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

const toEndpoint = (row: EndpointRow, thresholds: ThresholdRow[]): WebhookEndpoint => ({
  _id: row.id,
  url: row.url,
  events: row.events,
  markets: row.markets,
  pairs: row.pairs,
  thresholds: thresholds.map(toThreshold),
  secretHint: secretHint(row.secret),
  createdAt: row.createdAt.toISOString(),
  secretRotatedAt: iso(row.secretRotatedAt),
});

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

  /** Asks the queue to send now; a queue that is away is no loss (the sweep queues the delivery later). */
  async function dispatch(deliveries: Array<{ id: string; attempts: number }>): Promise<void> {
    await Promise.all(
      deliveries.map(({ id, attempts }) =>
        enqueue('webhook-delivery', { deliveryId: id }, { jobId: `${id}-${attempts}` }).catch(() => {}),
      ),
    );
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

  /** Records one attempt's outcome, unless another sender took the delivery over meanwhile. */
  async function settle(claimed: DeliveryRow, result: PostResult, latencyMs: number) {
    const now = new Date();
    const succeeded = result.error === null;
    const deadline = claimed.createdAt.getTime() + RETRY_WINDOW_MS;
    const retryAt = Math.min(now.getTime() + settings.retryBaseMs * 2 ** (claimed.attempts - 1), deadline);
    const state = succeeded ? 'succeeded' : now.getTime() >= deadline ? 'failed' : 'pending';
    const updated = await db.transaction(async (tx) => {
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
      if (rows.length === 0) return false;
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
      return true;
    });
    if (updated && state === 'pending') {
      await enqueue(
        'webhook-delivery',
        { deliveryId: claimed.id },
        { jobId: `${claimed.id}-${claimed.attempts}`, delayMs: retryAt - now.getTime() },
      ).catch(() => {
        // The sweep queues it once the queue is back.
      });
    }
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
      return { ...toEndpoint(endpoint, rows), secret };
    },

    async list(appId: string): Promise<WebhookEndpoint[]> {
      const rows = await db
        .select()
        .from(webhookEndpoints)
        .where(eq(webhookEndpoints.appId, appId))
        .orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id));
      const thresholds = await thresholdsOf(rows.map((r) => r.id));
      return rows.map((row) =>
        toEndpoint(
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
      return { ...toEndpoint(row, await thresholdsOf([row.id])), secret };
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
    async recordRateEvents(
      tx: Executor,
      rate: QuoteWithoutAge,
    ): Promise<Array<{ id: string; attempts: number }>> {
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
      return rows.map((r) => ({ id: r.id, attempts: 0 }));
    },

    dispatch,

    /** One attempt of one delivery (the webhook-delivery job). */
    async deliver(deliveryId: string): Promise<void> {
      const now = new Date();
      const [claimed] = await db
        .update(webhookDeliveries)
        .set({
          state: 'sending',
          attempts: sql`${webhookDeliveries.attempts} + 1`,
          lockedUntil: new Date(now.getTime() + settings.timeoutMs + 30_000),
        })
        .where(
          and(
            eq(webhookDeliveries.id, deliveryId),
            or(
              and(eq(webhookDeliveries.state, 'pending'), lte(webhookDeliveries.nextAttemptAt, now)),
              and(eq(webhookDeliveries.state, 'sending'), lt(webhookDeliveries.lockedUntil, now)),
            ),
          ),
        )
        .returning();
      // Sent already, being sent by another job, not due yet (the sweep will queue it), or its endpoint is gone.
      if (!claimed) return;
      const [endpoint] = await db
        .select()
        .from(webhookEndpoints)
        .where(eq(webhookEndpoints.id, claimed.endpointId));
      if (!endpoint) return;

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
      await settle(claimed, result, Math.round((performance.now() - started) * 10) / 10);
    },

    /**
     * The sweep job: queues every delivery that is due and that no job holds, e.g. one recorded while the queue was
     * away. A delivery queued twice is sent once (the claim in deliver).
     */
    async sweep(now = new Date()): Promise<number> {
      const due = await db
        .select({ id: webhookDeliveries.id, attempts: webhookDeliveries.attempts })
        .from(webhookDeliveries)
        .where(
          or(
            and(eq(webhookDeliveries.state, 'pending'), lte(webhookDeliveries.nextAttemptAt, now)),
            and(eq(webhookDeliveries.state, 'sending'), lt(webhookDeliveries.lockedUntil, now)),
          ),
        )
        .orderBy(webhookDeliveries.nextAttemptAt)
        .limit(SWEEP_BATCH);
      // A job id of its own per sweep: the job an earlier sweep queued may have run before the delivery was due.
      await Promise.all(
        due.map(({ id, attempts }) =>
          enqueue('webhook-delivery', { deliveryId: id }, { jobId: `${id}-${attempts}-${now.getTime()}` }),
        ),
      );
      return due.length;
    },
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;

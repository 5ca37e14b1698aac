// Webhook endpoints of an app: registered while its plan opens webhooks, with their thresholds, secrets (rotated
// with an overlap), circuit state and delivery history.
import { randomBytes } from 'node:crypto';
import { and, count, desc, eq, gt, inArray, isNull } from 'drizzle-orm';
import {
  cheapestPlanOpening,
  entitlementGap,
  entitlementRefusal,
  MAX_WEBHOOK_ENDPOINTS,
  type CreateWebhookInput,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEndpointWithSecret,
} from '@afrofx/shared';
import type { WebhookSettings } from '../../settings';
import type { Database } from '../../db/client';
import {
  plans,
  rates,
  webhookDeliveries,
  webhookDeliveryAttempts,
  webhookEndpoints,
  webhookThresholds,
} from '../../db/schema';
import { DomainError, badRequest, notFound } from '../../errors';
import type { Page } from '../../http';
import { accessOf } from '../subscriptions/subscriptions.repository';
import type { createDelivery } from './delivery';
import { deliveryRow, positionOf, toThreshold } from './rate-events';
import { checkTarget } from './webhook-target';

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
const iso = (date: Date | null) => (date ? date.toISOString() : null);

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

export function createEndpoints(
  db: Database,
  settings: WebhookSettings,
  delivery: Pick<ReturnType<typeof createDelivery>, 'dispatch' | 'wakeAccountOf'>,
) {
  const { dispatch, wakeAccountOf } = delivery;
  const endpointOut = (row: EndpointRow, thresholds: ThresholdRow[]) =>
    toEndpoint(row, thresholds, settings.parkCooldownMs);

  async function requirePlan(appId: string) {
    const access = await accessOf(db, appId, new Date());
    if (!access || (!access.premium && !access.plan)) throw new DomainError(402, NO_PLAN);
    if (access.premium) return;
    // The plan serving now must open webhooks (one bought before entitlements existed opens everything).
    const serving = access.plan;
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
      await wakeAccountOf(appId);
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
  };
}

// Rate events: a publication or a correction writes its webhook deliveries in its own transaction (an outbox), then
// the delivery engine is asked to send them; a queue that is away then costs nothing (the sweep queues them).
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { QuoteWithoutAge, RateRevision, WebhookDeliveryEvent, WebhookThreshold } from '@afrofx/shared';
import type { Database } from '../../db/client';
import { accounts, apps, webhookDeliveries, webhookEndpoints, webhookThresholds } from '../../db/schema';
import { hasPlanServing } from '../subscriptions/subscriptions.repository';

/** The rate entry's transaction, or the database itself. */
export type Executor = Pick<Database, 'select' | 'insert' | 'update'>;

type EndpointRow = typeof webhookEndpoints.$inferSelect;
type ThresholdRow = typeof webhookThresholds.$inferSelect;

export const toThreshold = (row: ThresholdRow): WebhookThreshold => ({
  _id: row.id,
  market: row.market,
  base: row.base,
  asset: row.asset,
  side: row.side,
  level: row.level,
  lastPosition: row.lastPosition,
});

/** A price's side of a level; on the level itself it stays where it was (touching is not crossing). */
export function positionOf(price: number, level: number, last: 'above' | 'below' | null) {
  if (price > level) return 'above' as const;
  if (price < level) return 'below' as const;
  return last;
}

/** An app may use webhooks while it may use the paid API: an active plan in its window, or a premium account. */
const hasPlan = (now: Date) =>
  sql<boolean>`(${accounts.state} = 'premium_customer' or ${hasPlanServing(apps.id, now)})`;

/** The endpoints of active accounts with a plan, which rate events go to. */
async function servedEndpoints(tx: Executor, now: Date): Promise<Map<string, EndpointRow>> {
  const endpoints = await tx
    .select({ endpoint: webhookEndpoints })
    .from(webhookEndpoints)
    .innerJoin(apps, eq(apps.id, webhookEndpoints.appId))
    .innerJoin(accounts, eq(accounts.id, apps.accountId))
    .where(and(eq(accounts.status, 'active'), hasPlan(now)));
  return new Map(endpoints.map(({ endpoint }) => [endpoint.id, endpoint]));
}

/** Whether the endpoint chose the rate's market and pair (none chosen means all). */
const endpointChose = (endpoint: EndpointRow, rate: { market: string; base: string; asset: string }) =>
  (endpoint.markets.length === 0 || endpoint.markets.includes(rate.market as never)) &&
  (endpoint.pairs.length === 0 || endpoint.pairs.some((p) => p.base === rate.base && p.asset === rate.asset));

/** A delivery of one event to one endpoint, due now. */
export function deliveryRow(endpointId: string, event: WebhookDeliveryEvent, data: object, now: Date) {
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

export function createRateEvents() {
  return {
    /**
     * Called inside a publication's transaction: moves every threshold of each pair to its rate's side and writes
     * the deliveries the publication causes: one rate.updated per endpoint with every rate it chose, and one
     * rate.threshold per crossing. The threshold rows are locked, so two publications at once fire a crossing once.
     */
    async recordRateEvents(
      tx: Executor,
      quotes: QuoteWithoutAge[],
      publication: { id: string; publishedAt: string },
    ): Promise<Array<{ endpointId: string }>> {
      const now = new Date();
      const served = await servedEndpoints(tx, now);

      const rows: Array<ReturnType<typeof deliveryRow>> = [];
      for (const endpoint of served.values()) {
        if (!endpoint.events.includes('rate.updated')) continue;
        const chosen = quotes.filter((rate) => endpointChose(endpoint, rate));
        if (chosen.length === 0) continue;
        rows.push(
          deliveryRow(endpoint.id, 'rate.updated', { rate: chosen[0], rates: chosen, publication }, now),
        );
      }

      for (const rate of quotes) {
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
      }
      if (rows.length > 0) await tx.insert(webhookDeliveries).values(rows);
      return rows.map((r) => ({ endpointId: r.endpointId }));
    },

    /** Called inside a correction's transaction: one rate.corrected per endpoint that chose it and the pair. */
    async recordCorrectionEvents(
      tx: Executor,
      correction: { rate: QuoteWithoutAge; revision: RateRevision },
    ): Promise<Array<{ endpointId: string }>> {
      const now = new Date();
      const rows = [...(await servedEndpoints(tx, now)).values()]
        .filter(
          (endpoint) =>
            endpoint.events.includes('rate.corrected') && endpointChose(endpoint, correction.rate),
        )
        .map((endpoint) => deliveryRow(endpoint.id, 'rate.corrected', correction, now));
      if (rows.length > 0) await tx.insert(webhookDeliveries).values(rows);
      return rows.map((r) => ({ endpointId: r.endpointId }));
    },
  };
}

// Corrections and withdrawals: appended as revisions, never written over the published record. Reads serve the
// newest revision through the served_rates view.
import { eq } from 'drizzle-orm';
import type { Rate, RateCorrectionInput } from '@afrofx/shared';
import type { Database } from '../../db/client';
import { rateRevisions, rates, servedRates } from '../../db/schema';
import { badRequest, notFound } from '../../errors';
import { recordActivity } from '../activity/activity.service';
import { afterCorrection, quoteOf, type PublicationDeps } from './publications';
import { toRate } from './rates.service';
import { toRevision } from './revision-list';

/** The record as reads serve it, locked so two corrections of one record number their revisions in turn. */
async function servedForRevision(tx: Pick<Database, 'select'>, id: string) {
  const [record] = await tx.select().from(rates).where(eq(rates.id, id)).for('update');
  if (!record) throw notFound('Rate not found.');
  const [served] = await tx.select().from(servedRates).where(eq(servedRates.id, id));
  if (!served) throw notFound('Rate not found: it was withdrawn.');
  return { record, served };
}

async function append(
  deps: PublicationDeps,
  id: string,
  adminId: string,
  change: { kind: 'correction' | 'withdrawal'; buy?: number; sell?: number; reason: string },
) {
  return deps.db.transaction(async (tx) => {
    const { record, served } = await servedForRevision(tx, id);
    const [row] = await tx
      .insert(rateRevisions)
      .values({
        rateId: id,
        revision: served.revision + 1,
        kind: change.kind,
        oldBuy: served.buy,
        oldSell: served.sell,
        buy: change.buy ?? served.buy,
        sell: change.sell ?? served.sell,
        reason: change.reason,
        revisedBy: adminId,
      })
      .returning();
    const revision = toRevision(row!, record);
    await recordActivity(tx, {
      adminId,
      kind: 'rates',
      action: change.kind === 'correction' ? 'correct' : 'withdraw',
      target: id,
      before: revision.old,
      after: change.kind === 'correction' ? revision.new : null,
      reason: change.reason,
    });
    let deliveries: Array<{ endpointId: string }> = [];
    let rate: Rate | null = null;
    if (change.kind === 'correction') {
      const [now] = await tx.select().from(servedRates).where(eq(servedRates.id, id));
      rate = toRate(now!);
      deliveries = await deps.webhooks.recordCorrectionEvents(tx, {
        rate: await quoteOf(tx, rate, now!.createdAt),
        revision,
      });
    }
    return { revision, rate, deliveries };
  });
}

/** A correction: the new figure becomes what every read serves; the old one stays in the revision. */
export async function correctRate(
  deps: PublicationDeps,
  id: string,
  input: RateCorrectionInput,
  adminId: string,
): Promise<Rate> {
  const { reason, buy_above_sell: inverted, market, base, asset, buy, sell } = input;
  if (buy > sell && !inverted)
    throw badRequest(
      'The buy is above the sell. Check the prices, or send buy_above_sell: true if that is intended.',
    );
  const [record] = await deps.db.select().from(rates).where(eq(rates.id, id));
  if (!record) throw notFound('Rate not found.');
  if (record.market !== market || record.base !== base || record.asset !== asset)
    throw badRequest(
      'A correction keeps the market, base and asset: withdraw the rate and publish the right pair.',
    );
  const { rate, deliveries } = await append(deps, id, adminId, { kind: 'correction', buy, sell, reason });
  await afterCorrection(deps, deliveries);
  return rate!;
}

/** A withdrawal: the record is hidden from every read and kept, with the reason. */
export async function withdrawRate(deps: PublicationDeps, id: string, reason: string, adminId: string) {
  const { deliveries } = await append(deps, id, adminId, { kind: 'withdrawal', reason });
  await afterCorrection(deps, deliveries);
}

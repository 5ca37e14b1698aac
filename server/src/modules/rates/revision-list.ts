// Corrections and withdrawals as GET /v1/rates/revisions lists them: both values, newest first.
import { and, count, desc, eq } from 'drizzle-orm';
import type { RateRevision, RateRevisionsQuery } from '@afrofx/shared';
import type { Database } from '../../db/client';
import { rateRevisions, rates } from '../../db/schema';
import type { Page } from '../../http';

type RevisionRow = typeof rateRevisions.$inferSelect;
type RecordRow = typeof rates.$inferSelect;

export const toRevision = (row: RevisionRow, record: RecordRow): RateRevision => ({
  _id: row.id,
  rateId: row.rateId,
  revision: row.revision,
  kind: row.kind,
  market: record.market,
  base: record.base,
  asset: record.asset,
  old: { buy: row.oldBuy, sell: row.oldSell },
  new: { buy: row.buy, sell: row.sell },
  reason: row.reason,
  publishedAt: record.createdAt.toISOString(),
  revisedAt: row.createdAt.toISOString(),
});

/** Corrections and withdrawals, newest first, with both values. */
export async function listRevisions(
  db: Database,
  page: Page,
  filter: Omit<RateRevisionsQuery, 'page'>,
): Promise<{ rows: RateRevision[]; count: number }> {
  const where = and(
    filter.market ? eq(rates.market, filter.market) : undefined,
    filter.base ? eq(rates.base, filter.base) : undefined,
    filter.asset ? eq(rates.asset, filter.asset) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select({ revision: rateRevisions, record: rates })
      .from(rateRevisions)
      .innerJoin(rates, eq(rates.id, rateRevisions.rateId))
      .where(where)
      .orderBy(desc(rateRevisions.createdAt), desc(rateRevisions.id))
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ value: count() })
      .from(rateRevisions)
      .innerJoin(rates, eq(rates.id, rateRevisions.rateId))
      .where(where),
  ]);
  return { rows: rows.map((r) => toRevision(r.revision, r.record)), count: total?.value ?? 0 };
}

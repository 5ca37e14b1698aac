// The official series as stored: the central banks' daily reference figures, read by the desk, the paid API and
// the premium, and written by the daily import.
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Asset, Base, OfficialSource } from '@afrofx/shared';
import type { Database } from '../../db/client';
import { officialRates } from '../../db/schema';

export interface OfficialRate {
  source: OfficialSource;
  /** The business day the central bank published the figure for (yyyy-mm-dd). */
  date: string;
  base: Base;
  asset: Asset;
  mid: number;
  buy: number | null;
  sell: number | null;
}

const columns = {
  source: officialRates.source,
  date: officialRates.rateDate,
  base: officialRates.base,
  asset: officialRates.asset,
  mid: officialRates.mid,
  buy: officialRates.buy,
  sell: officialRates.sell,
};

/** Each pair's newest official figure. */
export async function latestOfficialRates(db: Database): Promise<OfficialRate[]> {
  return db
    .selectDistinctOn([officialRates.base, officialRates.asset], columns)
    .from(officialRates)
    .orderBy(officialRates.base, officialRates.asset, desc(officialRates.rateDate));
}

/** Stores figures; one already stored for the same source, day and pair is kept, so a second run adds nothing. */
export async function storeOfficialRates(db: Database, figures: OfficialRate[]): Promise<number> {
  if (figures.length === 0) return 0;
  const inserted = await db
    .insert(officialRates)
    .values(figures.map(({ date, ...rest }) => ({ ...rest, rateDate: date })))
    .onConflictDoNothing()
    .returning({ id: officialRates.id });
  return inserted.length;
}

/** One pair's official figures between two days, newest first. */
export async function officialRatesOfPair(
  db: Database,
  pair: { base: Base; asset: Asset },
  range: { from: string; to: string },
): Promise<OfficialRate[]> {
  return db
    .select(columns)
    .from(officialRates)
    .where(
      and(
        eq(officialRates.base, pair.base),
        eq(officialRates.asset, pair.asset),
        sql`${officialRates.rateDate} between ${range.from} and ${range.to}`,
      ),
    )
    .orderBy(desc(officialRates.rateDate));
}

/** Every pair's official figures between two days, newest first. */
export async function officialRatesInRange(
  db: Database,
  range: { from: string; to: string },
): Promise<OfficialRate[]> {
  return db
    .select(columns)
    .from(officialRates)
    .where(sql`${officialRates.rateDate} between ${range.from} and ${range.to}`)
    .orderBy(desc(officialRates.rateDate), officialRates.base, officialRates.asset);
}

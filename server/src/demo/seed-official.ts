// The demo's official series: a month of business days of each central bank's reference figures, near the bank
// market's level, so the desk, the paid API and the pair pages show the series on a machine with no network.
import { count } from 'drizzle-orm';
import { ASSETS, OFFICIAL_SOURCE_BASE, OFFICIAL_SOURCES, type Asset, type Base } from '@afrofx/shared';
import type { Database } from '../db/client';
import { officialRates } from '../db/schema';

const OFFICIAL_DAYS = 30;

/** Reference mids a little under the demo's bank market (units of base per one unit of asset). */
const OFFICIAL_MID: Record<Base, Record<Asset, number>> = {
  naira: { dollar: 1455, euro: 1693, british_pounds: 1936, canadian_dollar: 1043 },
  'kenyan-shilling': { dollar: 128.9, euro: 150.1, british_pounds: 171.7, canadian_dollar: 92.4 },
  rand: { dollar: 17.31, euro: 20.15, british_pounds: 23.04, canadian_dollar: 12.42 },
  cedis: { dollar: 11.05, euro: 12.85, british_pounds: 14.74, canadian_dollar: 7.92 },
};

export async function seedOfficialRates(db: Database, now: Date): Promise<number> {
  const [existing] = await db.select({ value: count() }).from(officialRates);
  if ((existing?.value ?? 0) > 0) return 0;
  const rows: Array<typeof officialRates.$inferInsert> = [];
  for (let daysAgo = OFFICIAL_DAYS - 1; daysAgo >= 0; daysAgo--) {
    const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - daysAgo));
    // Business days only, as the banks publish.
    if (day.getUTCDay() === 0 || day.getUTCDay() === 6) continue;
    const wave = 1 + Math.sin(daysAgo / 4) * 0.004 - daysAgo * 0.0002;
    for (const source of OFFICIAL_SOURCES) {
      const base = OFFICIAL_SOURCE_BASE[source];
      // The Central Bank of Nigeria publishes no Canadian dollar.
      for (const asset of ASSETS.filter((a) => source !== 'cbn' || a !== 'canadian_dollar')) {
        const mid = Number((OFFICIAL_MID[base][asset] * wave).toFixed(4));
        // The Nigerian and Ghanaian banks give buying and selling rates; the Kenyan and South African ones a mid.
        const sided = source === 'cbn' || source === 'bog';
        rows.push({
          source,
          rateDate: day.toISOString().slice(0, 10),
          base,
          asset,
          mid,
          buy: sided ? Number((mid * 0.9997).toFixed(4)) : null,
          sell: sided ? Number((mid * 1.0003).toFixed(4)) : null,
        });
      }
    }
  }
  await db.insert(officialRates).values(rows).onConflictDoNothing();
  return rows.length;
}

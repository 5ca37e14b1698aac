// The daily import of the official series: one source at a time, so a source that is down leaves the others
// imported. Every attempt is recorded on the source's status row (success with what it added, or failure with why),
// which the admins see; the queue retries a failed attempt with backoff.
import { max } from 'drizzle-orm';
import {
  OFFICIAL_SOURCE_ATTRIBUTION,
  OFFICIAL_SOURCES,
  type OfficialSource,
  type OfficialSourceStatus,
} from '@afrofx/shared';
import type { OfficialSourceSettings } from '../../settings';
import type { Database } from '../../db/client';
import type { Enqueue } from '../../queue/enqueue';
import { officialRates, officialSourceStatus } from '../../db/schema';
import { storeOfficialRates } from './official-rates.repo';
import { fetchOfficialRates, type DayRange } from './sources';

const DAY_MS = 86_400_000;

/** The last `days` UTC days up to and including today's. */
export function lastDays(days: number, nowMs: number): DayRange {
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return { from: day(nowMs - (days - 1) * DAY_MS), to: day(nowMs) };
}

export interface ImportResult {
  /** Figures the source gave for the days asked. */
  found: number;
  /** Of those, the ones not stored before. */
  imported: number;
}

export function createOfficialImportService(
  db: Database,
  enqueue: Enqueue,
  settings: OfficialSourceSettings,
) {
  async function record(source: OfficialSource, values: Partial<typeof officialSourceStatus.$inferInsert>) {
    await db
      .insert(officialSourceStatus)
      .values({ source, ...values })
      .onConflictDoUpdate({ target: officialSourceStatus.source, set: values });
  }

  return {
    /** One import job per source for the run that starts at `runAt`; enqueued again for the same run, it is one job. */
    async enqueueImports(runAt: Date): Promise<void> {
      for (const source of OFFICIAL_SOURCES) {
        await enqueue('official-import', { source }, { jobId: `${source}-${runAt.toISOString()}` });
      }
    },

    /** Imports one source's figures for the days given; throws (after recording the failure) when it is down. */
    async importSource(source: OfficialSource, range: DayRange): Promise<ImportResult> {
      const attemptAt = new Date();
      let imported: number;
      let found: number;
      try {
        const figures = await fetchOfficialRates(source, settings, range);
        found = figures.length;
        imported = await storeOfficialRates(db, figures);
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err);
        await record(source, { lastAttemptAt: attemptAt, lastFailureAt: attemptAt, lastError: reason });
        throw err;
      }
      await record(source, { lastAttemptAt: attemptAt, lastSuccessAt: attemptAt, lastImported: imported });
      return { found, imported };
    },

    /** Every source's import state, a source never tried as unknown. */
    async statuses(): Promise<OfficialSourceStatus[]> {
      const [rows, latest] = await Promise.all([
        db.select().from(officialSourceStatus),
        db
          .select({ source: officialRates.source, day: max(officialRates.rateDate) })
          .from(officialRates)
          .groupBy(officialRates.source),
      ]);
      return OFFICIAL_SOURCES.map((source) => {
        const row = rows.find((r) => r.source === source);
        const failedLast =
          row?.lastFailureAt && (!row.lastSuccessAt || row.lastFailureAt >= row.lastSuccessAt);
        return {
          source,
          state: !row?.lastAttemptAt ? 'unknown' : failedLast ? 'down' : 'up',
          lastAttemptAt: row?.lastAttemptAt?.toISOString() ?? null,
          lastSuccessAt: row?.lastSuccessAt?.toISOString() ?? null,
          lastImported: row?.lastImported ?? null,
          lastFailureAt: row?.lastFailureAt?.toISOString() ?? null,
          lastError: row?.lastError ?? null,
          latestRateDate: latest.find((l) => l.source === source)?.day ?? null,
          attribution: OFFICIAL_SOURCE_ATTRIBUTION[source],
        };
      });
    },
  };
}

export type OfficialImportService = ReturnType<typeof createOfficialImportService>;

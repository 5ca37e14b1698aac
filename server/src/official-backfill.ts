// Back-fills the official series: `npm run official:backfill -- --days N [--source cbn]` imports the last N days of
// each central bank (or of the one named), source by source, and prints what each added. Figures already stored are
// kept, so it can be run again at any time. With the embedded database, stop `npm start` first: PGlite's folder has
// one process at a time.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { OFFICIAL_SOURCES, type OfficialSource } from '@afrofx/shared';
import { loadConfigOrExit } from './config';
import { openDatabase } from './db/client';
import { createOfficialImportService, lastDays } from './modules/official-rates/official-import.service';

const USAGE = 'usage: npm run official:backfill -- --days N [--source cbn|cbk|sarb|bog]';

async function main() {
  const { values } = parseArgs({ options: { days: { type: 'string' }, source: { type: 'string' } } });
  const days = Number(values.days);
  if (!Number.isInteger(days) || days < 1)
    throw new UsageError(`--days must be a whole number above 0. ${USAGE}`);
  if (values.source !== undefined && !(OFFICIAL_SOURCES as readonly string[]).includes(values.source)) {
    throw new UsageError(`--source must be one of ${OFFICIAL_SOURCES.join(', ')}. ${USAGE}`);
  }
  const sources = values.source ? [values.source as OfficialSource] : [...OFFICIAL_SOURCES];
  const config = loadConfigOrExit();
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: path.join(config.dataDir, 'pglite'),
  });
  await database.migrate();
  const importer = createOfficialImportService(
    database.db,
    () => Promise.reject(new Error('the back-fill runs its imports itself')),
    config.officialSources,
  );
  const range = lastDays(days, Date.now());
  let failed = 0;
  for (const source of sources) {
    try {
      const { found, imported } = await importer.importSource(source, range);
      console.log(`${source}: ${found} figures from ${range.from} to ${range.to}, ${imported} new`);
    } catch (err) {
      failed++;
      console.error(`${source}: down: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  await database.close();
  process.exit(failed > 0 ? 1 : 0);
}

class UsageError extends Error {}

main().catch((err: unknown) => {
  console.error(err instanceof UsageError ? err.message : err);
  process.exit(err instanceof UsageError ? 2 : 1);
});

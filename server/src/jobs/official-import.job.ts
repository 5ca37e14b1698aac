// The official series' import (../shared/providers/central-banks.md): every hour the schedule starts one job per
// central bank, each reading the last OFFICIAL_IMPORT_DAYS days, so a figure published late in the morning, or on a
// day the source was down, is picked up by a later run. Each job is one source: a bank that is down fails (and is
// retried with the queue's backoff) on its own, leaving the others imported. Storing is idempotent per source, day
// and pair, so runs that overlap add nothing twice.
import { lastDays } from '../modules/official-rates/official-import.service';
import type { JobContext, JobCounts } from './job-context';
import type { JobData } from '../queue/job-types';

export const OFFICIAL_IMPORTS_EVERY_MS = 3_600_000;

/** The hourly schedule's run: one import job per source, each enqueued once per hour however often this runs. */
export async function officialImportsJob(ctx: JobContext<'officialImport'>): Promise<void> {
  const hour = Math.floor((ctx.now ?? Date.now)() / OFFICIAL_IMPORTS_EVERY_MS) * OFFICIAL_IMPORTS_EVERY_MS;
  await ctx.services.officialImport.enqueueImports(new Date(hour));
}

export async function officialImportJob(
  ctx: JobContext<'officialImport'>,
  { source }: JobData<'official-import'>,
): Promise<JobCounts> {
  const range = lastDays(ctx.config.officialSources.importDays, (ctx.now ?? Date.now)());
  const result = await ctx.services.officialImport.importSource(source, range);
  ctx.log.info({ source, ...range, ...result }, 'official rates imported');
  return { ...result };
}

// The runs of admin-visible jobs (SPEC §7 Admin, Emails screen): written at enqueue, updated around each attempt.
import { count, desc, eq, sql } from 'drizzle-orm';
import { ADMIN_JOB_NAMES, type AdminJobName, type JobRun } from '@afrofx/shared';
import type { Database } from '../../db/client';
import { jobRuns } from '../../db/schema';
import type { Page } from '../../http';
import type { Enqueue } from '../../queue/enqueue';
import type { JobData, JobName } from '../../queue/job-types';

type JobRunRow = typeof jobRuns.$inferSelect;

const toJobRun = (row: JobRunRow): JobRun => ({
  _id: row.id,
  name: row.name as AdminJobName,
  state: row.state,
  progress: row.progress,
  total: row.total,
  counts: row.counts ?? {},
  attempts: row.attempts,
  error: row.error,
  warning: row.warning,
  createdAt: row.createdAt.toISOString(),
  startedAt: row.startedAt?.toISOString() ?? null,
  finishedAt: row.finishedAt?.toISOString() ?? null,
});

export function createJobRunsService(db: Database) {
  return {
    async create(name: AdminJobName): Promise<string> {
      const [row] = await db.insert(jobRuns).values({ name }).returning({ id: jobRuns.id });
      return row!.id;
    },

    /** A run whose job never reached the queue (enqueue answered 503) is not shown: nothing was accepted. */
    async withdraw(id: string): Promise<void> {
      await db.delete(jobRuns).where(eq(jobRuns.id, id));
    },

    /** Each attempt starts here, a retry too: the previous attempt's error stays until this one ends. */
    async start(id: string): Promise<void> {
      await db
        .update(jobRuns)
        .set({ state: 'running', attempts: sql`${jobRuns.attempts} + 1`, startedAt: sql`now()` })
        .where(eq(jobRuns.id, id));
    },

    async progress(id: string, progress: number, total: number): Promise<void> {
      await db.update(jobRuns).set({ progress, total }).where(eq(jobRuns.id, id));
    },

    async finish(id: string, counts: Record<string, number>, warning: string | null = null): Promise<void> {
      await db
        .update(jobRuns)
        .set({ state: 'done', counts, error: null, warning, finishedAt: sql`now()` })
        .where(eq(jobRuns.id, id));
    },

    /** Failed with its reason; the queue may still retry it, and the retry's start() shows it running again. */
    async fail(id: string, error: string): Promise<void> {
      await db
        .update(jobRuns)
        .set({ state: 'failed', error, finishedAt: sql`now()` })
        .where(eq(jobRuns.id, id));
    },

    async find(id: string): Promise<JobRun | undefined> {
      const [row] = await db.select().from(jobRuns).where(eq(jobRuns.id, id));
      return row && toJobRun(row);
    },

    async list(name: AdminJobName | undefined, page: Page): Promise<{ rows: JobRun[]; count: number }> {
      const where = name ? eq(jobRuns.name, name) : undefined;
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(jobRuns)
          .where(where)
          .orderBy(desc(jobRuns.createdAt), desc(jobRuns.id))
          .limit(page.limit)
          .offset(page.offset),
        db.select({ value: count() }).from(jobRuns).where(where),
      ]);
      return { rows: rows.map(toJobRun), count: total?.value ?? 0 };
    },
  };
}

export type JobRunsService = ReturnType<typeof createJobRunsService>;

const isAdminJob = (name: JobName): name is AdminJobName =>
  (ADMIN_JOB_NAMES as readonly string[]).includes(name);

/**
 * The enqueue services use: an admin job gets its run row first and carries the row's id, so the screen shows it
 * queued at once; a job that could not be queued takes its row back with it.
 */
export function enqueueWithRuns(enqueue: Enqueue, runs: JobRunsService): Enqueue {
  return async (name, data, options) => {
    if (!isAdminJob(name)) return enqueue(name, data, options);
    const runId = await runs.create(name);
    try {
      await enqueue(name, { ...data, runId } as JobData<typeof name>, options);
    } catch (err) {
      await runs.withdraw(runId);
      throw err;
    }
  };
}

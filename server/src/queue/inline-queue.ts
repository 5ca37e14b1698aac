// The queue without Redis (DESIGN §1): jobs are rows of the `jobs` table and run in this process, so a crash loses
// none. A claimed job holds a lease this process keeps extending while it runs; a job whose process died is claimed
// again once its lease has passed, or at once at start when the database is the embedded one (only one process can
// open it, so a job marked running there belongs to a process that is gone).
import { and, eq, inArray, lt, lte, notInArray, or, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { jobs } from '../db/schema';
import { nextDailyRun } from './daily-time';
import type { Job, JobName } from './job-types';
import { LANE_JOBS, LANES, laneOf, NON_PLATFORM_JOBS, type Lane } from './lanes';
import {
  JOB_ATTEMPTS,
  JOB_BACKOFF_MS,
  queueUnavailable,
  type JobQueue,
  type JobRunner,
  type Log,
} from './queue';

export interface InlineQueueOptions {
  db: Database;
  run: JobRunner;
  log: Log;
  /** Delay before the first retry; each further retry waits twice as long. */
  backoffMs?: number;
  /** True when no other process can share the database (PGlite): running jobs at start are orphans. */
  exclusive?: boolean;
  /** How long a claimed job stays claimed without its process extending the lease. */
  leaseMs?: number;
  /** How long close() waits for running jobs before leaving them to the next start. */
  closeGraceMs?: number;
  /** The clock schedules read (tests move it to a schedule's time). */
  now?: () => number;
}

// Finds work enqueued by another process sharing the database, and leases that expired.
const POLL_MS = 1000;
// A scheduled run that could not be stored (database away) is tried again this soon, not an interval later.
const SCHEDULE_RETRY_MS = 60_000;
// Completed rows are kept this long (their jobId still deduplicates), then pruned at start.
const KEEP_DONE_MS = 7 * 24 * 60 * 60 * 1000;

const msFromNow = (ms: number) => sql`now() + ${ms}::double precision * interval '1 millisecond'`;

export function createInlineQueue({
  db,
  run,
  log,
  backoffMs = JOB_BACKOFF_MS,
  exclusive = false,
  leaseMs = 30_000,
  closeGraceMs = 10_000,
  now = Date.now,
}: InlineQueueOptions): JobQueue {
  const running = new Map<string, Promise<void>>();
  /** The job name of each running job, for the per-lane concurrency. */
  const runningNames = new Map<string, JobName>();
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;
  let pumping: Promise<void> | undefined;
  let pumpAgain = false;

  const later = (ms: number, fn: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, ms);
    timer.unref();
    timers.add(timer);
  };

  /** Bookkeeping failures are logged, not thrown: the row stays and is claimed again when its lease passes. */
  const record = async (what: string, write: () => Promise<unknown>) => {
    try {
      await write();
    } catch (err) {
      if (!closed) log.error({ err }, `job queue could not record ${what}`);
    }
  };

  const claim = async (lane: Lane) => {
    const due = db
      .select({ id: jobs.id })
      .from(jobs)
      .where(
        and(
          lane === 'platform'
            ? notInArray(jobs.name, [...NON_PLATFORM_JOBS])
            : inArray(jobs.name, [...LANE_JOBS[lane]]),
          or(
            and(eq(jobs.state, 'queued'), lte(jobs.runAt, sql`now()`)),
            and(eq(jobs.state, 'running'), lt(jobs.lockedUntil, sql`now()`)),
          ),
          // A lease this process let lapse (a busy machine delayed its renewal) is still this process's job: it
          // is running here, and taking it again would run it twice.
          running.size > 0 ? notInArray(jobs.id, [...running.keys()]) : undefined,
        ),
      )
      .orderBy(jobs.runAt, jobs.createdAt)
      .limit(1)
      .for('update', { skipLocked: true });
    const [row] = await db
      .update(jobs)
      .set({ state: 'running', attempts: sql`${jobs.attempts} + 1`, lockedUntil: msFromNow(leaseMs) })
      .where(inArray(jobs.id, due))
      .returning({ id: jobs.id, name: jobs.name, data: jobs.data, attempts: jobs.attempts });
    return row;
  };

  const settle = async (row: { id: string; name: string; attempts: number }, err: unknown) => {
    if (err === undefined) {
      await record('a finished job', () =>
        db
          .update(jobs)
          .set({ state: 'done', lockedUntil: null, finishedAt: sql`now()` })
          .where(eq(jobs.id, row.id)),
      );
      return;
    }
    const lastError = err instanceof Error ? err.message : String(err);
    if (row.attempts >= JOB_ATTEMPTS) {
      log.error({ err, job: row.name, attempts: row.attempts }, 'job failed for good');
      await record('a failed job', () =>
        db
          .update(jobs)
          .set({ state: 'failed', lockedUntil: null, lastError, finishedAt: sql`now()` })
          .where(eq(jobs.id, row.id)),
      );
      return;
    }
    const delay = backoffMs * 2 ** (row.attempts - 1);
    log.error({ err, job: row.name, attempt: row.attempts, retryInMs: delay }, 'job failed, retrying');
    await record('a job to retry', () =>
      db
        .update(jobs)
        .set({ state: 'queued', lockedUntil: null, lastError, runAt: msFromNow(delay) })
        .where(eq(jobs.id, row.id)),
    );
    later(delay, pump);
  };

  const start = (row: { id: string; name: string; data: unknown; attempts: number }) => {
    const task = (async () => {
      let failure: unknown;
      try {
        await run({ name: row.name, data: row.data } as Job);
      } catch (err) {
        failure = err ?? new Error('job failed');
      }
      await settle(row, failure);
    })().finally(() => {
      running.delete(row.id);
      runningNames.delete(row.id);
      pump();
    });
    running.set(row.id, task);
    runningNames.set(row.id, row.name as JobName);
  };

  const runningIn = (lane: Lane) => [...runningNames.values()].filter((name) => laneOf(name) === lane).length;

  async function claimWhileFree() {
    do {
      pumpAgain = false;
      for (const lane of Object.keys(LANES) as Lane[])
        while (!closed && runningIn(lane) < LANES[lane].concurrency) {
          const row = await claim(lane);
          if (!row) break;
          start(row);
        }
    } while (pumpAgain && !closed);
  }

  function pump() {
    if (closed) return;
    if (pumping) {
      pumpAgain = true;
      return;
    }
    pumping = claimWhileFree()
      .catch((err: unknown) => {
        if (!closed) log.error({ err }, 'job queue could not claim a job');
      })
      .finally(() => {
        pumping = undefined;
      });
  }

  const extendLeases = () => {
    if (running.size > 0) {
      void record('a lease', () =>
        db
          .update(jobs)
          .set({ lockedUntil: msFromNow(leaseMs) })
          .where(and(inArray(jobs.id, [...running.keys()]), eq(jobs.state, 'running'))),
      );
    }
    later(leaseMs / 3, extendLeases);
  };
  const poll = () => {
    pump();
    later(POLL_MS, poll);
  };

  const started = (async () => {
    if (exclusive) {
      await db.update(jobs).set({ state: 'queued', lockedUntil: null }).where(eq(jobs.state, 'running'));
    }
    await db.delete(jobs).where(and(eq(jobs.state, 'done'), lt(jobs.finishedAt, msFromNow(-KEEP_DONE_MS))));
    extendLeases();
    poll();
  })().catch((err: unknown) => log.error({ err }, 'job queue could not start'));

  const enqueue: JobQueue['enqueue'] = async (name, data, options) => {
    if (closed) throw new Error('queue is closed');
    try {
      await started;
      await db
        .insert(jobs)
        .values({
          name,
          data,
          dedupeKey: options?.jobId ? `${name}:${options.jobId}` : null,
          runAt: options?.delayMs ? msFromNow(options.delayMs) : undefined,
        })
        .onConflictDoNothing();
    } catch (err) {
      log.error({ err, job: name }, 'could not store a job');
      throw queueUnavailable();
    }
    if (options?.delayMs) later(options.delayMs, pump);
    else pump();
  };

  return {
    driver: 'inline',
    enqueue,
    async schedule(schedule) {
      const { name, data } = schedule;
      /** The first scheduled time strictly after `after`. */
      const nextRun = (after: number) =>
        'everyMs' in schedule
          ? (Math.floor(after / schedule.everyMs) + 1) * schedule.everyMs
          : nextDailyRun(schedule.daily, after);
      // Each run has its scheduled time for its jobId: timers in several processes sharing the database, or a
      // restart, store it once (done rows keep their jobId for a week).
      const fire = async (at: number): Promise<void> => {
        if (closed) return;
        // A timer that fires a little early waits again rather than run ahead of its time.
        if (now() < at) return later(at - now(), () => void fire(at));
        try {
          await enqueue(name, data, { jobId: new Date(at).toISOString() });
        } catch (err) {
          if (closed) return;
          log.error({ err, job: name }, 'could not enqueue a scheduled job');
          return later(SCHEDULE_RETRY_MS, () => void fire(at));
        }
        // Runs the clock skipped (a suspended machine, a clock set forward) are not made up one by one.
        const next = nextRun(Math.max(at, now()));
        later(Math.max(next - now(), 0), () => void fire(next));
      };
      // An interval's run is stored as soon as the interval has begun (at start too); a daily run only when its time
      // comes, so a process that was down then does not send that day's mail late.
      await fire(
        'everyMs' in schedule
          ? Math.floor(now() / schedule.everyMs) * schedule.everyMs
          : nextDailyRun(schedule.daily, now() - 1),
      );
    },
    async ping() {
      await started;
    },
    async drain() {
      await started;
      for (;;) {
        await Promise.all([...running.values()]);
        const [unfinished] = await db
          .select({ id: jobs.id })
          .from(jobs)
          .where(inArray(jobs.state, ['queued', 'running']))
          .limit(1);
        if (!unfinished && running.size === 0) return;
        pump();
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    async close() {
      await started;
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await pumping;
      // DESIGN §7: shutdown is bounded; a job still running stays claimed in the table and runs again later.
      let graceTimer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all([...running.values()]),
        new Promise((resolve) => (graceTimer = setTimeout(resolve, closeGraceMs))),
      ]);
      clearTimeout(graceTimer);
    },
  };
}

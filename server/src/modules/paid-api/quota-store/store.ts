// Atomic check-and-count of the monthly quota and the per-key burst limit (DESIGN §5: with N concurrent
// requests and R remaining, exactly R succeed). Three stores for three deployments:
// - Redis (REDIS_URL): a Lua script counts each request, shared by every API process; one call carries the
//   requests of an event-loop turn;
// - memory (embedded PGlite, which only one process can open): counts in this process;
// - PostgreSQL without Redis: a conditional UPDATE per request, shared by every API process.
// Redis and memory counts reach the subscription row (processed_requests, last_increment) on each flush, and that
// durable count is the floor when Redis loses its data. While Redis is unreachable the Redis store counts with the
// PostgreSQL conditional UPDATE instead, and hands those counts back to Redis when it returns.
import { LRUCache } from 'lru-cache';
import type { QuotaPeriod } from '@afrofx/shared';
import type { Database } from '../../../db/client';
import {
  persistCount,
  storedPeriodCount,
  storedPeriodCountAndChange,
} from '../../subscriptions/subscriptions.repository';

export interface QuotaSubject {
  subscriptionId: string;
  limit: number;
  /** Count the database held for this period when the client was loaded. */
  processedAtLoad: number;
  period: QuotaPeriod;
}

export type QuotaOutcome =
  { allowed: true; used: number } | { allowed: false; reason: 'quota' | 'burst'; used: number };

export interface QuotaStore {
  readonly kind: 'redis' | 'memory' | 'postgres';
  /**
   * A null subject (premium account, SPEC §6) has no monthly limit: only the burst guard applies. `burstPerSecond`
   * is the key's own burst limit when its plan sets one lower than the store's, counted where the store
   * counts, so every API process shares it.
   */
  take(
    subject: QuotaSubject | null,
    keyHash: string,
    now: Date,
    burstPerSecond?: number,
  ): Promise<QuotaOutcome>;
  /**
   * The same take, answered to a callback: a paid answer's path, where the count in this process or in the turn's
   * Redis call needs no promise of its own. `done` may be called before this returns.
   */
  takeThen(
    subject: QuotaSubject | null,
    keyHash: string,
    now: Date,
    burstPerSecond: number | undefined,
    done: TakeDone,
  ): void;
  /** Gives back one counted request that was not served after all (a 5xx, or a client that went away). */
  refund(subject: QuotaSubject): Promise<void>;
  /**
   * The period's count as every API process sees it now (the shared counter, not this process's last take), so that
   * /v1/usage on any process agrees with the RateLimit headers of the last answer.
   */
  used(subject: QuotaSubject): Promise<number>;
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** Called once with a take's outcome, or with the error that kept it from being counted. */
export type TakeDone = (err: unknown, outcome?: QuotaOutcome) => void;

/** A take that waits on a promise anyway, answered to its callback. */
export function answerTake(take: Promise<QuotaOutcome>, done: TakeDone): void {
  take.then((outcome) => done(null, outcome), done);
}

export interface Counted {
  subject: QuotaSubject;
  /** The highest count this process has seen for the period. */
  used: number;
  lastIncrement: Date;
}

/** A counter's current value where the store can read it (null: unknown, e.g. Redis lost it). */
export type ReadCounts = (keys: string[]) => Promise<Array<number | null>>;

export const quotaKey = (prefix: string, subject: QuotaSubject) =>
  `${prefix}:quota:${subject.subscriptionId}:${subject.period.index}`;

/** Writes a period's count (`exact`: a value read from the store, which replaces the stored one). */
const writeCount = (db: Database, { subject, used, lastIncrement }: Counted, exact: boolean) =>
  persistCount(
    db,
    { subscriptionId: subject.subscriptionId, periodStart: subject.period.start, used, lastIncrement },
    exact,
  );

/** The durable count of the subject's current period. */
export const durableCount = (db: Database, subject: QuotaSubject): Promise<number> =>
  storedPeriodCount(db, subject.subscriptionId, subject.period.start);

/** The durable count with the count change it was read at (see `subscriptions.count_changes`). */
export interface DurableRead {
  used: number;
  change: number;
}

export const durableRead = (db: Database, subject: QuotaSubject): Promise<DurableRead> =>
  storedPeriodCountAndChange(db, subject.subscriptionId, subject.period.start);

/** The counters changed since the last write; a failed write puts them back so the next flush retries them. */
export class DirtyCounts {
  private entries = new Map<string, Counted>();
  note(key: string, subject: QuotaSubject, used: number, now: Date) {
    const entry = this.entries.get(key);
    if (entry) {
      entry.used = Math.max(entry.used, used);
      entry.lastIncrement = now;
    } else this.entries.set(key, { subject, used, lastIncrement: now });
  }
  private tail: Promise<void> = Promise.resolve();
  /**
   * Writes the current values `read` gives, or else the highest this process saw. Writes run one after another, so
   * a caller that awaits this knows every count noted before the call is in the database.
   */
  persist(db: Database, read?: ReadCounts): Promise<void> {
    const run = this.tail.then(() => this.write(db, read));
    this.tail = run.catch(() => undefined);
    return run;
  }
  private async write(db: Database, read?: ReadCounts) {
    const batch = [...this.entries];
    if (batch.length === 0) return;
    this.entries.clear();
    try {
      const current = read ? await read(batch.map(([key]) => key)).catch(() => undefined) : undefined;
      for (const [i, [, counted]] of batch.entries()) {
        const exact = current?.[i];
        await writeCount(db, exact == null ? counted : { ...counted, used: exact }, exact != null);
      }
    } catch (err) {
      for (const [key, counted] of batch) {
        const newer = this.entries.get(key);
        this.entries.set(key, newer ? { ...newer, used: Math.max(newer.used, counted.used) } : counted);
      }
      throw err;
    }
  }
}

export class BurstWindow {
  private windows = new LRUCache<string, { second: number; count: number }>({ max: 10_000 });
  constructor(private readonly perSecond: number) {}
  /** `perSecond` overrides the window's own limit for this call (a plan's burst rate). */
  allow(keyHash: string, now: Date, perSecond = this.perSecond): boolean {
    const second = Math.floor(now.getTime() / 1000);
    const window = this.windows.get(keyHash);
    if (!window || window.second !== second) {
      this.windows.set(keyHash, { second, count: 1 });
      return true;
    }
    return ++window.count <= perSecond;
  }
}

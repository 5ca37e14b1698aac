// The requests counted in PostgreSQL while Redis was away, per counter, handed back to Redis when it returns.
import { randomUUID } from 'node:crypto';
import type IORedis from 'ioredis';
import type { Database } from '../../../../db/client';
import { durableCount, type QuotaSubject } from '../store';
import type { TakeRecord } from './batches';
import type { HandBackApplied, QuotaScripts } from './scripts';

/** A counter's requests counted in PostgreSQL since Redis went away. */
interface OutageEntry {
  subject: QuotaSubject;
  count: number;
  /** Takes whose Redis call got no answer and may have run there too. */
  unanswered: TakeRecord[];
  /**
   * The count PostgreSQL reached with each request taken (refunded or not): which ones a durable count read at some
   * moment holds. `reached.length - count` of them were refunded.
   */
  reached: number[];
  /**
   * A hand-back sent whose answer did not come: sent again as it was, under its id, with the durable count read for
   * it (a first send that restarted the counter from that count is answered as such). It holds the first `listed` of
   * `reached` and the first `records` of `unanswered`, as they stood at that read.
   */
  handBack?: HandBack;
}

interface HandBack {
  id: string;
  count: number;
  listed: number;
  records: number;
  durable: number;
}

/**
 * Of the takes counted in PostgreSQL after their Redis call got no answer, how many Redis counted too (their call ran
 * after all, e.g. when a stall ended): those are in the Redis counter already and must not be handed to it again.
 */
async function countedInRedisToo(redis: IORedis, records: TakeRecord[]): Promise<number> {
  if (records.length === 0) return 0;
  const calls = [...new Set(records.map((r) => r.call))];
  const counts = new Map(
    (await redis.mget(...calls)).map((value, i) => [calls[i]!, value?.split(',').map(Number) ?? []] as const),
  );
  return records.filter((r) => r.position < (counts.get(r.call)?.[r.index] ?? 0)).length;
}

export class OutageCounts {
  private entries = new Map<string, OutageEntry>();
  private running: Promise<void> | undefined;

  constructor(
    private readonly db: Database,
    private readonly redis: IORedis,
    private readonly scripts: QuotaScripts,
    private readonly log: { warn(obj: object, msg: string): void },
  ) {}

  /** Requests counted in PostgreSQL wait to be handed back. */
  get pending(): boolean {
    return this.entries.size > 0;
  }

  /** A hand-back is running. */
  get reconciling(): boolean {
    return this.running !== undefined;
  }

  /** A request counted in PostgreSQL; `unanswered` when its Redis call got no answer and may have run there. */
  note(key: string, subject: QuotaSubject, used: number, unanswered?: TakeRecord) {
    const entry = this.entries.get(key) ?? { subject, count: 0, unanswered: [], reached: [] };
    entry.count++;
    entry.reached.push(used);
    if (unanswered) entry.unanswered.push(unanswered);
    this.entries.set(key, entry);
  }

  /** Gives back a request this process counted in PostgreSQL; false when it has none left to give back there. */
  refund(key: string): boolean {
    const entry = this.entries.get(key);
    if (!entry || entry.count <= 0) return false;
    entry.count--;
    return true;
  }

  /** Hands the requests counted in PostgreSQL during an outage back to Redis. */
  reconcile(): Promise<void> {
    this.running ??= (async () => {
      try {
        for (const [key, entry] of this.entries) await this.handBack(key, entry);
      } catch (err) {
        this.log.warn({ err }, 'quota reconcile with redis failed; counting in PostgreSQL until it succeeds');
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }

  private async handBack(key: string, entry: OutageEntry) {
    // What was counted until now: takes counted in PostgreSQL while this runs stay for the next hand-back
    // (forgetting them with the entry left them out of Redis for good).
    if (!entry.handBack) {
      const durable = await durableCount(this.db, entry.subject);
      entry.handBack = {
        id: randomUUID(),
        count: entry.count,
        listed: entry.reached.length,
        records: entry.unanswered.length,
        durable,
      };
    }
    const { handBack } = entry;
    const twice = await countedInRedisToo(this.redis, entry.unanswered.slice(0, handBack.records));
    const applied = await this.scripts.reconcile(key, entry.subject, {
      id: handBack.id,
      count: handBack.count - twice,
      durable: handBack.durable,
      reached: entry.reached.slice(0, handBack.listed),
    });
    entry.handBack = undefined;
    // Calls noted since the hand-back was made are checked with the next one.
    entry.unanswered.splice(0, handBack.records);
    settle(entry, handBack, applied);
    if (entry.count === 0 && entry.reached.length === 0 && entry.unanswered.length === 0)
      this.entries.delete(key);
  }
}

/** What is left to hand back once a hand-back was applied. */
function settle(entry: OutageEntry, handBack: HandBack, applied: HandBackApplied) {
  switch (applied) {
    case 'restarted': {
      // Restarted from the durable count, which holds every request PostgreSQL had counted when it was read (counts
      // up to `durable`), however many of them this process had noted by then, and the refunds made before the read:
      // the requests counted since, less the refunds made since, are left to hand back.
      const refundedSince = entry.reached.length - entry.count - (handBack.listed - handBack.count);
      entry.reached = entry.reached.filter((reached) => reached > handBack.durable);
      entry.count = entry.reached.length - refundedSince;
      return;
    }
    case 'added':
      // Below zero when more requests were refunded in PostgreSQL while the hand-back was on its way than were
      // counted: the next hand-back takes them off the counter.
      entry.count -= handBack.count;
      entry.reached.splice(0, handBack.listed);
  }
}

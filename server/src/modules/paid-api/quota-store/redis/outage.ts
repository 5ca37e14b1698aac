// The requests counted in PostgreSQL while Redis was away, per counter, handed back to Redis when it returns.
import { randomUUID } from 'node:crypto';
import type IORedis from 'ioredis';
import type { Database } from '../../../../db/client';
import { durableRead, type DurableRead, type QuotaSubject } from '../store';
import type { TakeRecord } from './batches';
import type { QuotaScripts } from './scripts';

/** A counter's requests counted (and given back) in PostgreSQL since Redis went away. */
interface OutageEntry {
  subject: QuotaSubject;
  /**
   * The count change (`subscriptions.count_changes`) of each request counted, and negated, of each given back: which
   * of them a durable count read at some moment holds. Their signs add up to the requests left to hand back.
   */
  changes: number[];
  /** Takes whose Redis call got no answer and may have run there too. */
  unanswered: TakeRecord[];
  /**
   * A hand-back sent whose answer did not come: sent again as it was, under its id, with the durable count read for
   * it (a first send that restarted the counter from that count is answered as such). It holds the first `listed` of
   * `changes` and the first `records` of `unanswered`, as they stood at that read.
   */
  handBack?: HandBack;
}

interface HandBack {
  id: string;
  listed: number;
  records: number;
  durable: DurableRead;
}

/** Requests counted less requests given back. */
const net = (changes: number[]) => changes.reduce((sum, change) => sum + Math.sign(change), 0);

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

  /**
   * A request counted in PostgreSQL with count change `change`, or given back there with `-change`; `unanswered`
   * when its Redis call got no answer and may have run there.
   */
  note(key: string, subject: QuotaSubject, change: number, unanswered?: TakeRecord) {
    const entry = this.entries.get(key) ?? { subject, changes: [], unanswered: [] };
    entry.changes.push(change);
    if (unanswered) entry.unanswered.push(unanswered);
    this.entries.set(key, entry);
  }

  /** Whether this process counted requests in PostgreSQL that it has not handed back or given back. */
  holds(key: string): boolean {
    const entry = this.entries.get(key);
    return entry !== undefined && net(entry.changes) > 0;
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
      const durable = await durableRead(this.db, entry.subject);
      entry.handBack = {
        id: randomUUID(),
        listed: entry.changes.length,
        records: entry.unanswered.length,
        durable,
      };
    }
    const { handBack } = entry;
    const changes = entry.changes.slice(0, handBack.listed);
    const twice = await countedInRedisToo(this.redis, entry.unanswered.slice(0, handBack.records));
    const applied = await this.scripts.reconcile(key, entry.subject, {
      id: handBack.id,
      count: net(changes) - twice,
      durable: handBack.durable,
      changes,
    });
    entry.handBack = undefined;
    // Calls noted since the hand-back was made are checked with the next one.
    entry.unanswered.splice(0, handBack.records);
    entry.changes =
      applied === 'restarted'
        ? // Restarted from the durable count, which holds every change PostgreSQL had made when it was read, whenever
          // this process noted it: the changes made after the read are left to hand back.
          entry.changes.filter((change) => Math.abs(change) > handBack.durable.change)
        : entry.changes.slice(handBack.listed);
    if (entry.changes.length === 0 && entry.unanswered.length === 0) this.entries.delete(key);
  }
}

// The takes asked for in one turn of the event loop, sent to Redis as one call of the take script.
import { randomUUID } from 'node:crypto';
import type { EntryAsked, EntryStop, QuotaScripts } from './scripts';

/** The most entries one script call carries, so that a call never holds Redis up for long. */
const MAX_ENTRIES_PER_CALL = 500;

/** What a take got: counted, or what stopped it, and the count it saw. */
export interface TakeAnswer {
  outcome: 'counted' | EntryStop;
  used: number;
}

/** The requests of one key and counter in a call: counted together, answered in the order they came. */
interface TakeEntry extends Omit<EntryAsked, 'requests'> {
  waiting: Array<{ resolve(answer: TakeAnswer): void; reject(err: unknown): void }>;
}

/** Where a take that got no answer can be looked up later: the call's record, its entry and its place there. */
export interface TakeRecord {
  call: string;
  index: number;
  position: number;
}

/** A take whose call got no answer (Redis away or stalled): it may still have run, or run later. */
export class UnansweredTake extends Error {
  constructor(
    cause: unknown,
    readonly record: TakeRecord,
  ) {
    super('redis did not answer the take', { cause });
  }
}

/**
 * The requests of one key are folded into one entry. A call per take cost the API process a command, a timer and a
 * socket write on every request, and Redis a script run; a call with an entry per request still cost both a line of
 * command and four counter updates per request (folded, Redis's CPU per answer of one busy key halved). The script
 * counts an entry's requests as one after another, so with N concurrent requests and R remaining exactly R still
 * succeed. A call that fails (Redis away or stalled) fails each of its takes: the caller then counts them in
 * PostgreSQL, as when each had a call of its own.
 */
export class TakeBatches {
  private entries = new Map<string, TakeEntry>();
  private scheduled = false;

  constructor(private readonly scripts: QuotaScripts) {}

  /** `limit` -1 is a key without a monthly limit (a premium account): its burst counter only. */
  take(burstKey: string, quotaKey: string, burstLimit: number, limit: number): Promise<TakeAnswer> {
    return new Promise((resolve, reject) => {
      const name = `${burstKey} ${quotaKey} ${burstLimit} ${limit}`;
      let entry = this.entries.get(name);
      if (!entry) {
        entry = { burstKey, quotaKey, burstLimit, limit, waiting: [] };
        this.entries.set(name, entry);
      }
      entry.waiting.push({ resolve, reject });
      if (this.entries.size >= MAX_ENTRIES_PER_CALL) this.send();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.send();
        });
      }
    });
  }

  private send() {
    const entries = [...this.entries.values()];
    if (entries.length === 0) return;
    this.entries = new Map();
    const asked = entries.map(({ waiting, ...entry }) => ({ ...entry, requests: waiting.length }));
    const call = this.scripts.callRecord(randomUUID());
    this.scripts.take(asked, call).then(
      (answers) =>
        entries.forEach(({ waiting }, i) => {
          const { stop, counted, used } = answers[i]!;
          // The counted requests saw the count rise one by one; the rest saw where it stopped.
          waiting.forEach((take, position) =>
            take.resolve(
              position < counted
                ? { outcome: 'counted', used: used - counted + position + 1 }
                : { outcome: stop, used },
            ),
          );
        }),
      (err: unknown) =>
        entries.forEach(({ waiting }, index) =>
          waiting.forEach((take, position) =>
            take.reject(new UnansweredTake(err, { call, index, position })),
          ),
        ),
    );
  }
}

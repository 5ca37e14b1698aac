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

/** Called once with the take's answer, or with an `UnansweredTake`. */
export type TakeCallback = (err: UnansweredTake | null, answer?: TakeAnswer) => void;

/** The requests of one key and counter in a call: counted together, answered in the order they came. */
interface TakeEntry extends Omit<EntryAsked, 'requests'> {
  waiting: TakeCallback[];
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
 * Answers every waiting take of a call. A take's callback that throws does not keep the others waiting: its error is
 * thrown once all are answered.
 */
function answerAll(
  entries: TakeEntry[],
  answer: (position: number, index: number) => Parameters<TakeCallback>,
): void {
  let thrown: unknown;
  entries.forEach(({ waiting }, index) =>
    waiting.forEach((done, position) => {
      try {
        done(...answer(position, index));
      } catch (err) {
        thrown ??= err;
      }
    }),
  );
  if (thrown !== undefined) throw thrown;
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

  /**
   * `limit` -1 is a key without a monthly limit (a premium account): its burst counter only. A callback, not a
   * promise: a paid answer's take is on every call's path, and the turn's call already is one promise for all.
   */
  take(burstKey: string, quotaKey: string, burstLimit: number, limit: number, done: TakeCallback): void {
    const name = `${burstKey} ${quotaKey} ${burstLimit} ${limit}`;
    let entry = this.entries.get(name);
    if (!entry) {
      entry = { burstKey, quotaKey, burstLimit, limit, waiting: [] };
      this.entries.set(name, entry);
    }
    entry.waiting.push(done);
    if (this.entries.size >= MAX_ENTRIES_PER_CALL) this.send();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.sendScheduled);
    }
  }

  /** The same, as a promise, for the paths that wait anyway (a seed, an outage). */
  takeAsync(burstKey: string, quotaKey: string, burstLimit: number, limit: number): Promise<TakeAnswer> {
    return new Promise((resolve, reject) =>
      this.take(burstKey, quotaKey, burstLimit, limit, (err, answer) =>
        err ? reject(err) : resolve(answer!),
      ),
    );
  }

  private readonly sendScheduled = () => {
    this.scheduled = false;
    this.send();
  };

  private send() {
    const entries = [...this.entries.values()];
    if (entries.length === 0) return;
    this.entries = new Map();
    const asked = entries.map(({ waiting, ...entry }) => ({ ...entry, requests: waiting.length }));
    const call = this.scripts.callRecord(randomUUID());
    this.scripts.take(asked, call).then(
      (answers) =>
        answerAll(entries, (position, i) => {
          const { stop, counted, used } = answers[i]!;
          // The counted requests saw the count rise one by one; the rest saw where it stopped.
          return [
            null,
            position < counted
              ? { outcome: 'counted', used: used - counted + position + 1 }
              : { outcome: stop, used },
          ];
        }),
      (err: unknown) =>
        answerAll(entries, (position, index) => [new UnansweredTake(err, { call, index, position })]),
    );
  }
}

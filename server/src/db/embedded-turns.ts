import type { PGlite } from '@electric-sql/pglite';

/** How long the embedded database may hold the API's thread with statements before requests waiting get a turn. */
const EMBEDDED_SLICE_MS = 4;

/**
 * The embedded database runs on the API's thread, and PGlite hands its lock from one statement to the next in
 * promise callbacks: statements queued by many callers (the accounts of a sign-up flood, each with its rows and its
 * activation mail) run back to back without the event loop getting a turn, and a paying customer's request waits
 * unread on its socket for all of them (50 to 90 ms stretches in a flood's profile). The statements here go one at
 * a time, as PGlite runs them anyway, and once the thread has spent EMBEDDED_SLICE_MS on them without a turn of the
 * event loop, the next waits for one. A transaction is one statement here: its own statements are not sliced.
 */
export function takingTurnsWithRequests(client: PGlite): PGlite {
  let sliceStartedAt: number | undefined;
  const endSlice = () => {
    sliceStartedAt = undefined;
  };
  /** True when the next statement may run now; starts a slice when none is open. */
  const mayRunNow = (): boolean => {
    const now = performance.now();
    if (sliceStartedAt === undefined) {
      sliceStartedAt = now;
      // Runs once the event loop gets a turn, which is all a slice waits for.
      setImmediate(endSlice);
      return true;
    }
    return now - sliceStartedAt < EMBEDDED_SLICE_MS;
  };
  const inTurn = async <T>(statement: () => Promise<T>): Promise<T> => {
    if (!mayRunNow()) {
      // endSlice was queued first, so it has run when this resumes, and mayRunNow opens the next slice.
      await new Promise((resolve) => setImmediate(resolve));
      mayRunNow();
    }
    return statement();
  };
  let previous: Promise<unknown> = Promise.resolve();
  const oneAtATime = <T>(statement: () => Promise<T>): Promise<T> => {
    // previous never fails: one statement's error is its caller's, not the next statement's.
    const run = previous.then(() => inTurn(statement));
    previous = run.catch(() => undefined);
    return run;
  };
  // What the handle answers in the engine's stead: the three ways in, and anything set on it later (a test that
  // watches the statements puts its own query here, and the queue still runs it).
  const own = new Map<PropertyKey, unknown>([
    ['query', ((...args) => oneAtATime(() => client.query(...args))) satisfies PGlite['query']],
    ['exec', ((...args) => oneAtATime(() => client.exec(...args))) satisfies PGlite['exec']],
    [
      'transaction',
      ((...args) => oneAtATime(() => client.transaction(...args))) satisfies PGlite['transaction'],
    ],
  ]);
  return new Proxy(client, {
    get(target, property) {
      if (own.has(property)) return own.get(property);
      const value: unknown = Reflect.get(target, property, target);
      // PGlite keeps its state in private fields, which only the instance itself may read.
      return typeof value === 'function' ? value.bind(target) : value;
    },
    set(_target, property, value) {
      own.set(property, value);
      return true;
    },
  });
}

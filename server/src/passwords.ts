import { readdirSync, readFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import path from 'node:path';
import argon2 from 'argon2';
import { Semaphore, withTimeout, type SemaphoreInterface } from 'async-mutex';
import Piscina from 'piscina';
import { RetryLater, badRequest, secondsInWords } from './errors';
import passwordScore from './password-strength.cjs';

/**
 * argon2id at 64 MiB and 3 passes (above OWASP's minimum) on one lane: one hash takes one core, not four, so the
 * hashing queue below bounds the cores hashing takes. Under jest the hash stays
 * argon2id with a small memory cost: the suites sign up and sign in hundreds of times, and at full cost that was
 * minutes of CI on two cores. verifyPassword reads the cost from the hash itself, so either kind verifies.
 */
const HASH_OPTIONS: argon2.HashOptions = process.env.JEST_WORKER_ID
  ? { type: argon2.argon2id, memoryCost: 4096, timeCost: 2, parallelism: 1 }
  : { type: argon2.argon2id, memoryCost: 65_536, timeCost: 3, parallelism: 1 };

/** How many passwords a process hashes at once, and how long a sign-up or sign-in may wait for its turn. */
export interface PasswordHashingSettings {
  concurrency: number;
  maxWaitMs: number;
}

/** Beyond this many waiting, a request is turned away at once: its wait would pass the limit anyway. */
const MAX_WAITING_PER_SLOT = 50;

/**
 * Hashing a password takes a core for a good part of a second by design. A flood of sign-ups or sign-ins hashed all at
 * once takes every core and the paying customers' API calls wait behind them, so the hashing of a process goes
 * through one bounded queue: a few at a time, and past the wait limit the request is answered 503 with Retry-After.
 */
function hashingQueue({ concurrency, maxWaitMs }: PasswordHashingSettings) {
  const timedOut = new Error('password hashing queue wait limit');
  const slots: SemaphoreInterface = withTimeout(new Semaphore(concurrency), maxWaitMs, timedOut);
  const retryAfter = Math.max(1, Math.ceil(maxWaitMs / 1000));
  const busy = () =>
    new RetryLater(
      503,
      `We are busy right now. Please try again in ${secondsInWords(retryAfter)}.`,
      retryAfter,
    );
  let waiting = 0;
  return async function queued<T>(work: () => Promise<T>): Promise<T> {
    if (waiting >= concurrency * MAX_WAITING_PER_SLOT) throw busy();
    waiting++;
    let release: SemaphoreInterface.Releaser;
    try {
      [, release] = await slots.acquire();
    } catch (err) {
      throw err === timedOut ? busy() : err;
    } finally {
      waiting--;
    }
    try {
      return await work();
    } finally {
      release();
    }
  };
}

let queued = hashingQueue({ concurrency: 2, maxWaitMs: 5_000 });

/** The process's settings (PASSWORD_HASH_CONCURRENCY, PASSWORD_HASH_MAX_WAIT_MS): one queue for all its cores. */
export function configurePasswordHashing(settings: PasswordHashingSettings): void {
  queued = hashingQueue(settings);
}

export const hashPassword = (password: string) => queued(() => argon2.hash(password, HASH_OPTIONS));

/**
 * A new password's strength check and hash, in one turn of the queue: the check (zxcvbn) takes tens of milliseconds
 * of a core, so a flood of sign-ups runs it a few at a time too, not all at once.
 */
export const hashNewPassword = (password: string, personal: string[]) =>
  queued(async () => {
    await assertStrongPassword(password, personal);
    return argon2.hash(password, HASH_OPTIONS);
  });

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  return queued(async () => {
    try {
      return await argon2.verify(hash, password);
    } catch {
      return false;
    }
  });
}

// Verifying against this when the account does not exist keeps unknown e-mails as slow as wrong passwords. Made once
// a process, outside the queue, so a busy moment never leaves it failed.
let decoyHash: Promise<string> | undefined;
export const decoyPasswordHash = () =>
  (decoyHash ??= argon2.hash('afrofx-decoy-password', HASH_OPTIONS).catch((err: unknown) => {
    decoyHash = undefined;
    throw err;
  }));

export const WEAK_PASSWORD =
  'This password is too easy to guess: choose a longer one, such as three or four unrelated words.';

/**
 * The strength meter's thread: a check takes tens of milliseconds and building the meter half a second, which on the
 * API's thread held every paying customer's call behind a flood of sign-ups. One thread is enough: the hashing queue
 * lets a few checks through at a time. The server starts it (main.ts); where it is not started (the tests build the
 * app without main.ts, and a thread per test file would cost CI the meter's half second each time) the same module
 * checks on the calling thread. `server/test/password-strength.test.ts` checks the thread.
 */
let strengthThread: Piscina | undefined;

/** The strength meter on a thread of its own (started with its dictionaries built, so the first check waits not). */
export function startPasswordStrengthThread(): Piscina {
  if (!strengthThread) {
    strengthThread = new Piscina({
      filename: path.join(__dirname, 'password-strength.cjs'),
      minThreads: 1,
      maxThreads: 1,
      idleTimeout: Infinity,
      workerData: { nice: PASSWORD_THREAD_NICE },
    });
    // The warm-up builds the meter. A shutdown that ends the thread first rejects it, and nothing waits for it.
    strengthThread.run({ password: '', personal: [] }).catch(() => undefined);
  }
  return strengthThread;
}

/** Ends the strength meter's thread (shutdown, tests). */
export async function stopPasswordStrengthThread(): Promise<void> {
  const stopping = strengthThread;
  strengthThread = undefined;
  await stopping?.destroy();
}

/**
 * Builds the strength meter (its dictionaries take half a second) before the server takes requests, on its own
 * thread, so the first sign-up of a flood does not stall every call behind it. The decoy hash made here starts
 * libuv's thread pool, where argon2 hashes, and those threads then give way to the API's (niceHashingPool).
 */
export function preparePasswordChecks(): void {
  startPasswordStrengthThread();
  decoyPasswordHash().then(
    niceHashingPool,
    // A sign-in makes it again when it needs it: a failed one is not kept.
    () => undefined,
  );
}

/** The name Linux shows (`/proc/<pid>/task/<tid>/comm`) for the threads of libuv's pool. */
const LIBUV_POOL_THREAD = 'libuv-worker';
/** The nice value of the threads that hash and check passwords: below the API's thread (0), above nothing. */
export const PASSWORD_THREAD_NICE = 10;

/**
 * Linux keeps a nice value per thread. libuv's pool, which hashes, runs below the thread that answers the paying
 * customers (the strength meter's thread sets its own, from the workerData it starts with), so on a machine with
 * every core busy a flood of sign-ups waits for the API, not the other way round; on an idle core they run at full
 * speed. Elsewhere (no /proc) nothing changes.
 */
function niceHashingPool(): void {
  try {
    for (const tid of readdirSync('/proc/self/task')) {
      if (readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim() === LIBUV_POOL_THREAD)
        setPriority(Number(tid), PASSWORD_THREAD_NICE);
    }
  } catch {
    // Not Linux, or not allowed: the threads keep the process's priority.
  }
}

/**
 * OWASP ASVS 2.1.7: refuse passwords found in breach lists or easily guessed, measured with zxcvbn (score 3 of 4:
 * "safely unguessable" against online attacks). The schema has already checked the length. `personal` holds the
 * account's own words (e-mail, names), which make a password guessable too.
 */
export async function assertStrongPassword(password: string, personal: string[]): Promise<void> {
  const task = { password, personal };
  const score = strengthThread ? ((await strengthThread.run(task)) as number) : passwordScore(task);
  if (score < 3) throw badRequest(WEAK_PASSWORD);
}

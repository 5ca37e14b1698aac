// The password strength meter runs on a thread of its own in the server (a flood of sign-ups held the API's thread
// with it): the thread gives the same verdicts as the check on the calling thread, and a weak password is refused
// with the same message either way.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import {
  PASSWORD_THREAD_NICE,
  WEAK_PASSWORD,
  assertStrongPassword,
  preparePasswordChecks,
  startPasswordStrengthThread,
  stopPasswordStrengthThread,
} from '../src/passwords';
import { eventually } from './support/test-app';

/** This process's threads as Linux shows them: name and nice value (the 19th field of their stat). */
function threads() {
  return readdirSync('/proc/self/task').map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    // The name, in parentheses, may hold spaces: the fields are counted after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { name: readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim(), nice: Number(fields[16]) };
  });
}

const verdict = (password: string, personal: string[]) =>
  assertStrongPassword(password, personal).then(
    () => 'strong',
    (err: Error) => err.message,
  );

const CASES: Array<[string, string[]]> = [
  ['password123', []],
  ['violet harbour 7 lantern quietly', []],
  ['amara.okafor@example.com', ['amara.okafor@example.com', 'Amara', 'Okafor']],
  ['Okafor2026!', ['amara.okafor@example.com', 'Amara', 'Okafor']],
  ['correct horse battery staple', []],
];

describe('the password strength meter on its own thread', () => {
  afterAll(() => stopPasswordStrengthThread());

  it('gives the verdicts of the check on the calling thread, and runs them on the thread', async () => {
    const here = await Promise.all(CASES.map(([password, personal]) => verdict(password, personal)));
    expect(here).toContain(WEAK_PASSWORD);
    expect(here).toContain('strong');

    const thread = startPasswordStrengthThread();
    const completedBefore = thread.completed;
    const there = await Promise.all(CASES.map(([password, personal]) => verdict(password, personal)));
    expect(there).toEqual(here);
    // Each check ran there (and perhaps the start's warm-up, which builds the meter).
    expect(thread.completed - completedBefore).toBeGreaterThanOrEqual(CASES.length);
    expect(thread.threads).toHaveLength(1);
  });

  it('ends at shutdown before its warm-up finished without an unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const note = (reason: unknown) => void unhandled.push(reason);
    process.on('unhandledRejection', note);
    try {
      await stopPasswordStrengthThread();
      startPasswordStrengthThread();
      await stopPasswordStrengthThread();
      // Node reports an unhandled rejection once the microtasks after it have run.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', note);
    }
  });

  // Linux only: elsewhere the threads keep the process's priority.
  (existsSync('/proc/self/task') ? it : it.skip)(
    'runs the meter and the hashing pool below the API thread, which keeps its priority',
    async () => {
      preparePasswordChecks();
      await eventually(async () => {
        const pool = threads().filter((thread) => thread.name === 'libuv-worker');
        expect(pool.length).toBeGreaterThan(0);
        expect(pool.filter((thread) => thread.nice !== PASSWORD_THREAD_NICE)).toEqual([]);
        // The meter's worker thread (preparePasswordChecks starts it), besides the pool.
        const others = threads().filter((thread) => thread.name !== 'libuv-worker');
        expect(others.filter((thread) => thread.nice === PASSWORD_THREAD_NICE)).toHaveLength(1);
      });
      const others = threads().filter((thread) => thread.name !== 'libuv-worker');
      // The process's own thread, which answers the API, first in the list.
      expect(others[0]).toEqual(expect.objectContaining({ nice: 0 }));
    },
  );
});

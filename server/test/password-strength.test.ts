// The password strength meter runs on a thread of its own in the server (a flood of sign-ups held the API's thread
// with it): the thread gives the same verdicts as the check on the calling thread, and a weak password is refused
// with the same message either way.
import {
  WEAK_PASSWORD,
  assertStrongPassword,
  startPasswordStrengthThread,
  stopPasswordStrengthThread,
} from '../src/passwords';

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
});

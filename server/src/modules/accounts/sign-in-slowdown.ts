// A per-account slow-down of sign-in, for developers and admins. Guessing one account's password from many
// client addresses gets past the per-address limits (plugins/limits.ts); this counts the failures of the account
// itself, from any address and unknown device. A known device of the login (device-cookies.ts) is counted under its
// own key instead, so the owner's browser is not slowed down by a stranger's guesses. After FREE_FAILURES failures (each within WINDOW of the last), every further attempt
// must wait 2^k seconds (k = failures beyond the free ones), capped at MAX_WAIT: the owner is never locked out for
// long, a successful sign-in or a password reset clears the count, and the reset-by-mail path is never slowed.
// An attempt during the wait is answered 429 before the password is checked, and does not count.
// Unknown addresses are counted like known ones, so the answers tell nothing about which accounts exist.
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { signInFailures } from '../../db/schema';
import { TooManyAttempts, secondsInWords } from '../../errors';

type Role = (typeof signInFailures.$inferSelect)['role'];

export const FREE_FAILURES = 5;
const WINDOW_MINUTES = 15;
export const MAX_WAIT_SECONDS = 300;
/** Rows untouched this long are pruned: their count has long restarted. */
const KEEP_DAYS = 1;

const keyOf = (email: string) => email.trim().toLowerCase();

/** What a known device's failures are counted under (device-cookies.ts): that device alone, apart from any login. */
export const knownDeviceKey = (device: string) => `device:${device}`;

const slowedDown = (seconds: number, role: Role) =>
  new TooManyAttempts(
    `Too many failed sign-ins for this account. Try again in ${secondsInWords(seconds)}` +
      (role === 'developer' ? ', or reset your password by e-mail.' : '.'),
    seconds,
  );

/** Throws a 429 with Retry-After while the account must wait. */
export async function assertMaySignIn(db: Database, role: Role, email: string): Promise<void> {
  const [row] = await db
    .select({
      wait: sql<number>`ceil(extract(epoch from (${signInFailures.blockedUntil} - now())))::int`,
    })
    .from(signInFailures)
    .where(
      and(
        eq(signInFailures.role, role),
        eq(signInFailures.email, keyOf(email)),
        sql`${signInFailures.blockedUntil} > now()`,
      ),
    );
  if (row) throw slowedDown(Math.max(1, Number(row.wait)), role);
}

/** Counts a failed attempt (one statement, so attempts at once from several processes all count). */
export async function recordFailedSignIn(db: Database, role: Role, email: string): Promise<void> {
  const window = sql.raw(`interval '${WINDOW_MINUTES} minutes'`);
  const failures = sql`case when ${signInFailures.lastFailureAt} < now() - ${window} then 1 else ${signInFailures.failures} + 1 end`;
  const blockedUntil = (n: ReturnType<typeof sql>) =>
    sql`case when ${n} >= ${FREE_FAILURES} then now() + least(power(2, ${n} - ${FREE_FAILURES}), ${MAX_WAIT_SECONDS}) * interval '1 second' end`;
  await db
    .insert(signInFailures)
    .values({
      role,
      email: keyOf(email),
      failures: 1,
      lastFailureAt: sql`now()`,
    })
    .onConflictDoUpdate({
      target: [signInFailures.role, signInFailures.email],
      set: { failures, lastFailureAt: sql`now()`, blockedUntil: blockedUntil(failures) },
    });
  await db
    .delete(signInFailures)
    .where(lt(signInFailures.lastFailureAt, sql`now() - ${sql.raw(`interval '${KEEP_DAYS} day'`)}`));
}

/** A successful sign-in or a new password: the account's count starts again. */
export async function clearFailedSignIns(
  db: Pick<Database, 'delete'>,
  role: Role,
  email: string,
): Promise<void> {
  await db
    .delete(signInFailures)
    .where(and(eq(signInFailures.role, role), eq(signInFailures.email, keyOf(email))));
}

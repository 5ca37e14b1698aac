// The one sign-in check for both roles: an unknown e-mail and a wrong password get the same answer, in the
// same time (a decoy hash is verified when there is no account). Failures slow the next attempts down
// (sign-in-slowdown.ts): an unknown device's those of every unknown device on the login, a known device's its own.
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { accounts } from '../../db/schema';
import { badRequest, DomainError } from '../../errors';
import { assertStrongPassword, decoyPasswordHash, hashPassword, verifyPassword } from '../../passwords';
import { assertMaySignIn, clearFailedSignIns, knownDeviceKey, recordFailedSignIn } from './sign-in-slowdown';

type Role = (typeof accounts.$inferSelect)['role'];

export async function findAccountByEmail(db: Database, email: string, role: Role) {
  const [row] = await db
    .select()
    .from(accounts)
    .where(and(sql`lower(${accounts.email}) = ${email.trim().toLowerCase()}`, eq(accounts.role, role)));
  return row;
}

/**
 * `device` is the id of a known device of this login (device-cookies.ts), or null. An unknown device waits out the
 * login's slow-down; a known one only its own, so the owner's browser is never slowed down by a stranger's guesses.
 */
export async function accountWithPassword(
  db: Database,
  email: string,
  password: string,
  role: Role,
  device: string | null = null,
) {
  const counted = device ? knownDeviceKey(device) : email;
  await assertMaySignIn(db, role, counted);
  const account = await findAccountByEmail(db, email, role);
  const valid = await verifyPassword(account?.passwordHash ?? (await decoyPasswordHash()), password);
  if (!account || !valid) {
    await recordFailedSignIn(db, role, counted);
    throw new DomainError(401, 'Invalid email or password.');
  }
  // The owner on a known device leaves the unknown devices' count as it is: the stranger keeps waiting.
  await clearFailedSignIns(db, role, counted);
  return account;
}

/**
 * The one password change for both roles (SPEC §5): the current password must be right, the new one differ and be
 * strong. The token version moves on, so every session of the account ends; the caller starts a fresh one at the
 * version answered.
 */
export async function changeAccountPassword(
  db: Database,
  accountId: string,
  oldPassword: string,
  newPassword: string,
): Promise<number> {
  const [account] = await db.select().from(accounts).where(eq(accounts.id, accountId));
  if (!account || !(await verifyPassword(account.passwordHash, oldPassword))) {
    throw badRequest('Your current password is not correct.');
  }
  if (oldPassword === newPassword) throw badRequest('Passwords can not be the same.');
  await assertStrongPassword(newPassword, [account.email, account.firstName, account.lastName]);
  const [row] = await db
    .update(accounts)
    .set({
      passwordHash: await hashPassword(newPassword),
      tokenVersion: sql`${accounts.tokenVersion} + 1`,
      updatedAt: new Date(),
    })
    .where(eq(accounts.id, accountId))
    .returning({ tokenVersion: accounts.tokenVersion });
  return row!.tokenVersion;
}

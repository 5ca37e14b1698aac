// The one sign-in check for both roles: an unknown e-mail and a wrong password get the same answer, in the
// same time (a decoy hash is verified when there is no account). Each account's failures slow its next attempts
// down (sign-in-slowdown.ts).
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { accounts } from '../../db/schema';
import { DomainError } from '../../errors';
import { decoyPasswordHash, verifyPassword } from '../../passwords';
import { assertMaySignIn, clearFailedSignIns, recordFailedSignIn } from './sign-in-slowdown';

type Role = (typeof accounts.$inferSelect)['role'];

export async function findAccountByEmail(db: Database, email: string, role: Role) {
  const [row] = await db
    .select()
    .from(accounts)
    .where(and(sql`lower(${accounts.email}) = ${email.trim().toLowerCase()}`, eq(accounts.role, role)));
  return row;
}

export async function accountWithPassword(db: Database, email: string, password: string, role: Role) {
  await assertMaySignIn(db, role, email);
  const account = await findAccountByEmail(db, email, role);
  const valid = await verifyPassword(account?.passwordHash ?? (await decoyPasswordHash()), password);
  if (!account || !valid) {
    await recordFailedSignIn(db, role, email);
    throw new DomainError(401, 'Invalid email or password.');
  }
  await clearFailedSignIns(db, role, email);
  return account;
}

// The one sign-in check for both roles: an unknown e-mail and a wrong password get the same answer, in the
// same time (a decoy hash is verified when there is no account).
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { accounts } from '../../db/schema';
import { DomainError } from '../../errors';
import { decoyPasswordHash, verifyPassword } from '../../passwords';

type Role = (typeof accounts.$inferSelect)['role'];

export async function findAccountByEmail(db: Database, email: string, role: Role) {
  const [row] = await db
    .select()
    .from(accounts)
    .where(and(sql`lower(${accounts.email}) = ${email.trim().toLowerCase()}`, eq(accounts.role, role)));
  return row;
}

export async function accountWithPassword(db: Database, email: string, password: string, role: Role) {
  const account = await findAccountByEmail(db, email, role);
  const valid = await verifyPassword(account?.passwordHash ?? (await decoyPasswordHash()), password);
  if (!account || !valid) throw new DomainError(401, 'Invalid email or password.');
  return account;
}

import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { accounts } from '../../db/schema';
import { DomainError, forbidden } from '../../errors';
import { decoyPasswordHash, hashPassword, verifyPassword } from '../../passwords';

export interface AuthenticatedAdmin {
  id: string;
  email: string;
  tokenVersion: number;
}

const INVALID_CREDENTIALS = 'Invalid email or password.';

export function createAdminUsersService(db: Database) {
  const findByEmail = async (email: string) =>
    (
      await db
        .select()
        .from(accounts)
        .where(and(sql`lower(${accounts.email}) = ${email.trim().toLowerCase()}`, eq(accounts.role, 'admin')))
    )[0];

  return {
    async authenticate(email: string, password: string): Promise<AuthenticatedAdmin> {
      const admin = await findByEmail(email);
      const valid = await verifyPassword(admin?.passwordHash ?? (await decoyPasswordHash()), password);
      if (!admin || !valid) throw new DomainError(401, INVALID_CREDENTIALS);
      if (admin.status !== 'active') throw forbidden('This account has been disabled.');
      return { id: admin.id, email: admin.email, tokenVersion: admin.tokenVersion };
    },

    /** The session check behind every admin call: the account must still be an active admin at that version. */
    async sessionIsValid(id: string, tokenVersion: number): Promise<boolean> {
      const [row] = await db
        .select({ status: accounts.status, tokenVersion: accounts.tokenVersion })
        .from(accounts)
        .where(and(eq(accounts.id, id), eq(accounts.role, 'admin')));
      return Boolean(row && row.status === 'active' && row.tokenVersion === tokenVersion);
    },

    /** DESIGN §4: the first admin comes from ADMIN_EMAIL / ADMIN_PASSWORD, created at start when absent. */
    async ensureAdmin(email: string, password: string): Promise<boolean> {
      if (await findByEmail(email)) return false;
      await db
        .insert(accounts)
        .values({ email: email.trim().toLowerCase(), passwordHash: await hashPassword(password), role: 'admin', isActivated: true })
        .onConflictDoNothing();
      return true;
    },
  };
}

export type AdminUsersService = ReturnType<typeof createAdminUsersService>;

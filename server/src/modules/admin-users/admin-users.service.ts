import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { accounts } from '../../db/schema';
import type { ChangeFeed } from '../../change-feed';
import { forbidden, notFound } from '../../errors';
import { hashPassword } from '../../passwords';
import { accountWithPassword, findAccountByEmail } from '../accounts/credentials';

export interface AuthenticatedAdmin {
  id: string;
  email: string;
  tokenVersion: number;
}

export function createAdminUsersService(db: Database, changes: ChangeFeed) {
  return {
    async authenticate(email: string, password: string): Promise<AuthenticatedAdmin> {
      const admin = await accountWithPassword(db, email, password, 'admin');
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

    /** Disabling ends the account's sessions (token version) and its API keys in every process. */
    async setStatus(id: string, status: 'active' | 'disabled'): Promise<void> {
      const [row] = await db
        .update(accounts)
        .set({
          status,
          updatedAt: new Date(),
          ...(status === 'disabled' ? { tokenVersion: sql`${accounts.tokenVersion} + 1` } : {}),
        })
        .where(eq(accounts.id, id))
        .returning({ id: accounts.id });
      if (!row) throw notFound('Account not found.');
      await changes.publish({ kind: 'account', accountId: id });
    },

    /** SPEC §6: a premium ("super") customer uses the paid API without a plan or a monthly limit. */
    async setState(id: string, state: 'premium_customer' | 'normal_customer'): Promise<void> {
      const [row] = await db
        .update(accounts)
        .set({ state, updatedAt: new Date() })
        .where(eq(accounts.id, id))
        .returning({ id: accounts.id });
      if (!row) throw notFound('Account not found.');
      await changes.publish({ kind: 'account', accountId: id });
    },

    /** DESIGN §4: the first admin comes from ADMIN_EMAIL / ADMIN_PASSWORD, created at start when absent. */
    async ensureAdmin(email: string, password: string): Promise<boolean> {
      if (await findAccountByEmail(db, email, 'admin')) return false;
      await db
        .insert(accounts)
        .values({
          email: email.trim().toLowerCase(),
          passwordHash: await hashPassword(password),
          role: 'admin',
          isActivated: true,
        })
        .onConflictDoNothing();
      return true;
    },
  };
}

export type AdminUsersService = ReturnType<typeof createAdminUsersService>;

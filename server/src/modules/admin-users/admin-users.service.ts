import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { AdminUser } from '@afrofx/shared';
import type { Database } from '../../db/client';
import { accounts } from '../../db/schema';
import type { ChangeFeed } from '../../change-feed';
import { badRequest, conflict, forbidden, notFound } from '../../errors';
import type { Page } from '../../http';
import { assertStrongPassword, hashPassword } from '../../passwords';
import { accountWithPassword, changeAccountPassword, findAccountByEmail } from '../accounts/credentials';
import { clearFailedSignIns } from '../accounts/sign-in-slowdown';

export interface AuthenticatedAdmin {
  id: string;
  email: string;
  tokenVersion: number;
}

type AccountRow = typeof accounts.$inferSelect;

const toAdminUser = (row: AccountRow): AdminUser => ({
  _id: row.id,
  email: row.email,
  role: row.role,
  status: row.status,
  state: row.state,
  createdAt: row.createdAt.toISOString(),
});

export function createAdminUsersService(db: Database, changes: ChangeFeed) {
  return {
    /** `device`: a known device of this login (device-cookies.ts), or null. */
    async authenticate(
      email: string,
      password: string,
      device: string | null = null,
    ): Promise<AuthenticatedAdmin> {
      const admin = await accountWithPassword(db, email, password, 'admin', device);
      if (admin.status !== 'active') throw forbidden('This account has been disabled.');
      return { id: admin.id, email: admin.email, tokenVersion: admin.tokenVersion };
    },

    /** Clears the sign-in slow-down of an address, for both consoles: the next attempt is checked at once. */
    async liftSignInLock(email: string): Promise<void> {
      await Promise.all((['developer', 'admin'] as const).map((role) => clearFailedSignIns(db, role, email)));
    },

    /** The session check behind every admin call: the account must still be an active admin at that version. */
    async sessionIsValid(id: string, tokenVersion: number): Promise<boolean> {
      const [row] = await db
        .select({ status: accounts.status, tokenVersion: accounts.tokenVersion })
        .from(accounts)
        .where(and(eq(accounts.id, id), eq(accounts.role, 'admin')));
      return Boolean(row && row.status === 'active' && row.tokenVersion === tokenVersion);
    },

    /** The signed-in admin's own password, by the developers' rules; every other session of the admin ends. */
    changePassword(id: string, oldPassword: string, newPassword: string): Promise<number> {
      return changeAccountPassword(db, id, oldPassword, newPassword);
    },

    /**
     * Disabling ends the account's sessions (token version) and its API keys in every process. An admin cannot
     * disable itself, nor the last active admin: the console would be left with nobody to sign in. The active
     * admins are locked first, so two admins disabling each other at once cannot both succeed. `actorId` is the
     * admin acting from the console.
     */
    async setStatus(id: string, status: 'active' | 'disabled', actorId?: string): Promise<void> {
      if (status === 'disabled' && id === actorId) throw badRequest('You cannot disable your own account.');
      await db.transaction(async (tx) => {
        if (status === 'disabled') {
          const activeAdmins = await tx
            .select({ id: accounts.id })
            .from(accounts)
            .where(and(eq(accounts.role, 'admin'), eq(accounts.status, 'active')))
            .for('update');
          if (activeAdmins.length === 1 && activeAdmins[0]!.id === id)
            throw badRequest('The last active admin cannot be disabled.');
        }
        const [row] = await tx
          .update(accounts)
          .set({
            status,
            updatedAt: new Date(),
            ...(status === 'disabled' ? { tokenVersion: sql`${accounts.tokenVersion} + 1` } : {}),
          })
          .where(eq(accounts.id, id))
          .returning({ id: accounts.id });
        if (!row) throw notFound('Account not found.');
      });
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

    /** SPEC §2: an admin is created by another admin; the address must not belong to any account yet. */
    async createAdmin(rawEmail: string, password: string): Promise<AdminUser> {
      const email = rawEmail.trim().toLowerCase();
      await assertStrongPassword(password, [email]);
      const [row] = await db
        .insert(accounts)
        .values({ email, passwordHash: await hashPassword(password), role: 'admin', isActivated: true })
        .onConflictDoNothing()
        .returning();
      if (!row) throw conflict('An account with this e-mail address already exists.');
      return toAdminUser(row);
    },

    /** DESIGN §4: newest first, every account (admins and developers), since the status and customer toggles act on both. */
    async list(page: Page): Promise<{ rows: AdminUser[]; count: number }> {
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(accounts)
          .orderBy(desc(accounts.createdAt), desc(accounts.id))
          .limit(page.limit)
          .offset(page.offset),
        db.select({ value: count() }).from(accounts),
      ]);
      return { rows: rows.map(toAdminUser), count: total?.value ?? 0 };
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

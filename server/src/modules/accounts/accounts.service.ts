import { and, eq, gt, isNotNull, isNull, sql } from 'drizzle-orm';
import type { DeveloperUser, SignupInput } from '@afrofx/shared';
import type { Database } from '../../db/client';
import { accounts, accountTokens, mailingListSubscribers } from '../../db/schema';
import { badRequest, forbidden } from '../../errors';
import { mailboxOf } from '../../mailbox';
import { assertStrongPassword, hashNewPassword, hashPassword } from '../../passwords';
import { accountWithPassword, changeAccountPassword, findAccountByEmail } from './credentials';
import { clearFailedSignIns } from './sign-in-slowdown';
import { hashToken, newLinkToken } from '../../secrets';
import type { Enqueue } from '../../queue/enqueue';

type AccountRow = typeof accounts.$inferSelect;
type TokenKind = 'activation' | 'password_reset';

const LINK_LIFETIME_MS: Record<TokenKind, number> = { activation: 48 * 3_600_000, password_reset: 3_600_000 };

export const ACTIVATION_LINK_INVALID = 'This activation link is invalid or has expired.';
export const RESET_LINK_INVALID = 'This password reset link is invalid, expired or already used.';

export const toDeveloperUser = (row: AccountRow): DeveloperUser => ({
  _id: row.id,
  email: row.email,
  first_name: row.firstName,
  last_name: row.lastName,
});

export interface SignedInDeveloper {
  user: DeveloperUser;
  tokenVersion: number;
}

export function createAccountsService(db: Database, enqueue: Enqueue) {
  const findDeveloperByEmail = (email: string) => findAccountByEmail(db, email, 'developer');

  /** Marks a live link token used and returns its account; one statement, so two clicks can't both win. */
  const liveToken = (kind: TokenKind, token: string) =>
    and(
      eq(accountTokens.tokenHash, hashToken(token)),
      eq(accountTokens.kind, kind),
      isNull(accountTokens.usedAt),
      gt(accountTokens.expiresAt, new Date()),
    );
  const consumeToken = async (kind: TokenKind, token: string) => {
    const [row] = await db
      .update(accountTokens)
      .set({ usedAt: new Date() })
      .where(liveToken(kind, token))
      .returning({ accountId: accountTokens.accountId });
    return row?.accountId;
  };

  return {
    /**
     * Answers the same whether or not the address has an account (no enumeration): a new address gets an
     * activation link, a never-activated one a fresh link, an activated one a mail saying it already has an
     * account. `mayMail` is asked once the input is accepted: at most one such mail per address per window.
     */
    async signup(input: SignupInput, mayMail: () => Promise<boolean>): Promise<void> {
      // The schema's minLength counts spaces: a name of spaces only would greet the developer with a blank.
      const firstName = input.first_name.trim();
      const lastName = input.last_name.trim();
      if (!firstName) throw badRequest('First name is required.');
      if (!lastName) throw badRequest('Last name is required.');
      const email = input.email.trim().toLowerCase();
      const passwordHash = await hashNewPassword(input.password, [email, firstName, lastName]);
      const [row] = await db
        .insert(accounts)
        .values({
          email,
          mailbox: mailboxOf(email),
          passwordHash,
          firstName,
          lastName,
          role: 'developer',
        })
        .onConflictDoNothing()
        .returning();
      // SPEC §2 API Customers: every developer who signs up joins the API waiting list, once.
      if (row) {
        await db
          .insert(mailingListSubscribers)
          .values({ email, mailType: 'api_wait_list_user', isActivated: true, activatedAt: new Date() })
          .onConflictDoNothing();
      }
      if (!(await mayMail())) return;
      if (row) return enqueue('account-mail', { accountId: row.id, kind: 'activation' });
      const existing = await findDeveloperByEmail(email);
      // An admin's address or a disabled account gets no mail at all.
      if (!existing || existing.status !== 'active') return;
      await enqueue('account-mail', {
        accountId: existing.id,
        kind: existing.isActivated ? 'account_exists' : 'activation',
      });
    },

    /** The addressee of an account mail, while the account is still active. */
    async mailRecipient(accountId: string): Promise<AccountRow | undefined> {
      const [account] = await db.select().from(accounts).where(eq(accounts.id, accountId));
      return account?.status === 'active' ? account : undefined;
    },

    /** Called by the account-mail job: a fresh single-use token for the e-mailed link. */
    async issueLinkToken(
      accountId: string,
      kind: TokenKind,
    ): Promise<{ account: AccountRow; token: string } | undefined> {
      const [account] = await db.select().from(accounts).where(eq(accounts.id, accountId));
      if (!account) return undefined;
      if (kind === 'activation' && account.isActivated) return undefined;
      const { token, hash } = newLinkToken();
      await db.insert(accountTokens).values({
        accountId,
        kind,
        tokenHash: hash,
        expiresAt: new Date(Date.now() + LINK_LIFETIME_MS[kind]),
      });
      return { account, token };
    },

    /**
     * 'already': the link was used before and its account is active, as when a mail client or a second click opens
     * it again; that is no error, like the subscription link's "already activated".
     */
    async activate(token: string): Promise<'activated' | 'already'> {
      const accountId = await consumeToken('activation', token);
      if (!accountId) {
        const [used] = await db
          .select({ id: accounts.id })
          .from(accountTokens)
          .innerJoin(accounts, eq(accounts.id, accountTokens.accountId))
          .where(
            and(
              eq(accountTokens.tokenHash, hashToken(token)),
              eq(accountTokens.kind, 'activation'),
              isNotNull(accountTokens.usedAt),
              eq(accounts.isActivated, true),
            ),
          );
        if (used) return 'already';
        throw badRequest(ACTIVATION_LINK_INVALID);
      }
      await db
        .update(accounts)
        .set({ isActivated: true, updatedAt: new Date() })
        .where(eq(accounts.id, accountId));
      return 'activated';
    },

    /** `device`: a known device of this login (device-cookies.ts), or null. */
    async signin(email: string, password: string, device: string | null = null): Promise<SignedInDeveloper> {
      const account = await accountWithPassword(db, email, password, 'developer', device);
      if (account.status !== 'active')
        throw forbidden('This account has been disabled. Kindly reach out to support.');
      if (!account.isActivated)
        throw forbidden('Kindly activate your account with the link sent to your e-mail.');
      return { user: toDeveloperUser(account), tokenVersion: account.tokenVersion };
    },

    /**
     * The "Kindly activate…" sign-in refusal offers this. Answers the same whatever the address
     * (no enumeration); only an active account not yet activated gets a fresh link.
     */
    async resendActivation(email: string, mayMail: () => Promise<boolean>): Promise<void> {
      if (!(await mayMail())) return;
      const account = await findDeveloperByEmail(email);
      if (account && account.status === 'active' && !account.isActivated)
        await enqueue('account-mail', { accountId: account.id, kind: 'activation' });
    },

    /** Answers the same whether or not the address has an account (no enumeration). */
    async requestPasswordReset(email: string, mayMail: () => Promise<boolean>): Promise<void> {
      if (!(await mayMail())) return;
      const account = await findDeveloperByEmail(email);
      if (account && account.status === 'active')
        await enqueue('account-mail', { accountId: account.id, kind: 'password_reset' });
    },

    /** Lets the reset page refuse a dead link before the new password is typed twice; uses nothing up. */
    async checkResetLink(code: string): Promise<void> {
      const [row] = await db
        .select({ id: accountTokens.id })
        .from(accountTokens)
        .where(liveToken('password_reset', code));
      if (!row) throw badRequest(RESET_LINK_INVALID);
    },

    async resetPassword(code: string, password: string): Promise<void> {
      // Checked before the code is used up, so a refused password leaves the link working.
      await assertStrongPassword(password, []);
      const accountId = await consumeToken('password_reset', code);
      if (!accountId) throw badRequest(RESET_LINK_INVALID);
      const passwordHash = await hashPassword(password);
      // A reset ends every session the account had, and voids its other reset links (an older mail stays harmless).
      await db.transaction(async (tx) => {
        const [reset] = await tx
          .update(accounts)
          .set({ passwordHash, tokenVersion: sql`${accounts.tokenVersion} + 1`, updatedAt: new Date() })
          .where(eq(accounts.id, accountId))
          .returning({ email: accounts.email });
        // The owner proved the mailbox: failed sign-ins before the reset no longer slow them down.
        if (reset) await clearFailedSignIns(tx, 'developer', reset.email);
        await tx
          .update(accountTokens)
          .set({ usedAt: new Date() })
          .where(
            and(
              eq(accountTokens.accountId, accountId),
              eq(accountTokens.kind, 'password_reset'),
              isNull(accountTokens.usedAt),
            ),
          );
      });
    },

    /** Ends every other session of the account; returns the token version for the caller's fresh session. */
    changePassword(accountId: string, oldPassword: string, newPassword: string): Promise<number> {
      return changeAccountPassword(db, accountId, oldPassword, newPassword);
    },

    /** The session check behind every developer call. */
    async developerSession(id: string, tokenVersion: number): Promise<AccountRow | undefined> {
      const [row] = await db
        .select()
        .from(accounts)
        .where(and(eq(accounts.id, id), eq(accounts.role, 'developer')));
      return row && row.status === 'active' && row.isActivated && row.tokenVersion === tokenVersion
        ? row
        : undefined;
    },
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;

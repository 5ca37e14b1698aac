import { and, count, desc, eq } from 'drizzle-orm';
import type { ApiKey, App } from '@afrofx/shared';
import type { ChangeFeed } from '../../change-feed';
import type { Database } from '../../db/client';
import { accounts, apiKeys, apps } from '../../db/schema';
import { APP_NOT_FOUND, badRequest, notFound } from '../../errors';
import type { Page } from '../../http';
import { generateKeyPair, hashPrivateKey } from '../api-keys/api-key-material';

/** The private key is never stored: after generation only its last four characters can be shown. */
const maskPrivateKey = (last4: string) => `sk_${'•'.repeat(24)}${last4}`;

export function createAppsService(db: Database, changes: ChangeFeed) {
  const appsWithOwner = () =>
    db
      .select({
        id: apps.id,
        name: apps.name,
        createdAt: apps.createdAt,
        firstName: accounts.firstName,
        lastName: accounts.lastName,
        email: accounts.email,
      })
      .from(apps)
      .innerJoin(accounts, eq(accounts.id, apps.accountId));

  const toApp = (row: Awaited<ReturnType<typeof appsWithOwner>>[number]): App => ({
    _id: row.id,
    name: row.name,
    user: { first_name: row.firstName, last_name: row.lastName, email: row.email },
    createdAt: row.createdAt.toISOString(),
  });

  return {
    /** DESIGN §4: an app of someone else is answered exactly like a missing one, so ids can't be probed. */
    async owned(accountId: string, appId: string): Promise<App> {
      const [row] = await appsWithOwner().where(and(eq(apps.id, appId), eq(apps.accountId, accountId)));
      if (!row) throw notFound(APP_NOT_FOUND);
      return toApp(row);
    },

    /** The app a private key belongs to, when its account is active: the key stands for the app's owner. */
    async appOfPrivateKey(privateKey: string): Promise<string | null> {
      const [row] = await db
        .select({ appId: apiKeys.appId })
        .from(apiKeys)
        .innerJoin(apps, eq(apps.id, apiKeys.appId))
        .innerJoin(accounts, eq(accounts.id, apps.accountId))
        .where(and(eq(apiKeys.privateKeyHash, hashPrivateKey(privateKey)), eq(accounts.status, 'active')));
      return row?.appId ?? null;
    },

    async create(accountId: string, name: string): Promise<App> {
      // The schema's minLength counts spaces: a name of spaces only would list as a blank app.
      const trimmed = name.trim();
      if (!trimmed) throw badRequest('Name is required.');
      const [row] = await db.insert(apps).values({ accountId, name: trimmed }).returning({ id: apps.id });
      return this.owned(accountId, row!.id);
    },

    async listOwned(accountId: string): Promise<App[]> {
      const rows = await appsWithOwner()
        .where(eq(apps.accountId, accountId))
        .orderBy(desc(apps.createdAt), desc(apps.id));
      return rows.map(toApp);
    },

    /** The admin's Apps screen: every developer's apps with their creator, newest first. */
    async list(page: Page): Promise<{ rows: App[]; count: number }> {
      const [rows, [total]] = await Promise.all([
        appsWithOwner().orderBy(desc(apps.createdAt), desc(apps.id)).limit(page.limit).offset(page.offset),
        db.select({ value: count() }).from(apps),
      ]);
      return { rows: rows.map(toApp), count: total?.value ?? 0 };
    },

    /** Creates the app's key pair, or rotates it: the old private key stops working. The apps routes check ownership. */
    async generateKey(appId: string): Promise<ApiKey> {
      const keys = generateKeyPair();
      const values = {
        publicKey: keys.publicKey,
        privateKeyHash: keys.privateKeyHash,
        privateKeyLast4: keys.privateKeyLast4,
        createdAt: new Date(),
      };
      const [row] = await db
        .insert(apiKeys)
        .values({ appId, ...values })
        .onConflictDoUpdate({ target: apiKeys.appId, set: values })
        .returning();
      // Every API process drops the old key at once (DESIGN §5).
      await changes.publish({ kind: 'app', appId });
      return {
        public_key: row!.publicKey,
        private_key: keys.privateKey,
        createdAt: row!.createdAt.toISOString(),
      };
    },

    async key(appId: string): Promise<ApiKey | null> {
      const [row] = await db.select().from(apiKeys).where(eq(apiKeys.appId, appId));
      return row
        ? {
            public_key: row.publicKey,
            private_key: maskPrivateKey(row.privateKeyLast4),
            createdAt: row.createdAt.toISOString(),
          }
        : null;
    },
  };
}

export type AppsService = ReturnType<typeof createAppsService>;

// DESIGN §5: key → app → account → subscription, cached in memory so the paid path makes no database round
// trip per request. Entries are dropped when the change feed says their app or account changed, and expire
// after a minute as a safety net.
import { timingSafeEqual } from 'node:crypto';
import { and, desc, eq, gt, inArray, lte } from 'drizzle-orm';
import type { ChangeFeed } from '../../change-feed';
import type { Database } from '../../db/client';
import { accounts, apiKeys, apps, subscriptions } from '../../db/schema';
import { hashPrivateKey } from '../api-keys/api-key-material';

export interface ApiClient {
  keyHash: string;
  appId: string;
  accountId: string;
  publicKey: string;
  premium: boolean;
  subscription: {
    id: string;
    limit: number;
    processed: number;
    lastIncrement: Date | null;
    startsAt: Date;
    expireAt: Date;
  } | null;
}

const TTL_MS = 60_000;
const NEGATIVE_TTL_MS = 2_000;
const MAX_ENTRIES = 50_000;
/** The shape generateKeyPair makes; anything else is refused without a lookup. */
const PRIVATE_KEY = /^sk_[A-Za-z0-9_-]{20,64}$/;

export interface ApiClients {
  resolve(privateKey: string, now: Date): Promise<ApiClient | null>;
}

export function createApiClients(db: Database, changes: ChangeFeed): ApiClients {
  const cache = new Map<string, { client: ApiClient | null; expires: number }>();
  const loading = new Map<string, Promise<ApiClient | null>>();
  let generation = 0;

  changes.subscribe((change) => {
    if (change.kind === 'rates') return;
    for (const [hash, entry] of cache) {
      const client = entry.client;
      if (
        !client ||
        (change.kind === 'app' ? client.appId === change.appId : client.accountId === change.accountId)
      )
        cache.delete(hash);
    }
    // A load started before the change may carry stale facts: it is not cached, and the next request loads again.
    generation++;
    loading.clear();
  });

  async function load(keyHash: string, now: Date): Promise<ApiClient | null> {
    const [row] = await db
      .select({
        keyHash: apiKeys.privateKeyHash,
        publicKey: apiKeys.publicKey,
        appId: apps.id,
        accountId: accounts.id,
        status: accounts.status,
        state: accounts.state,
      })
      .from(apiKeys)
      .innerJoin(apps, eq(apps.id, apiKeys.appId))
      .innerJoin(accounts, eq(accounts.id, apps.accountId))
      .where(eq(apiKeys.privateKeyHash, keyHash));
    if (!row || row.status !== 'active') return null;
    if (!timingSafeEqual(Buffer.from(row.keyHash, 'hex'), Buffer.from(keyHash, 'hex'))) return null;
    // An upcoming plan whose start has come is in its window already: it serves before the promotion job runs.
    const [subscription] = await db
      .select()
      .from(subscriptions)
      .where(
        and(
          eq(subscriptions.appId, row.appId),
          inArray(subscriptions.status, ['active', 'exhausted', 'upcoming']),
          lte(subscriptions.startsAt, now),
          gt(subscriptions.expireAt, now),
        ),
      )
      .orderBy(desc(subscriptions.startsAt))
      .limit(1);
    return {
      keyHash,
      appId: row.appId,
      accountId: row.accountId,
      publicKey: row.publicKey,
      premium: row.state === 'premium_customer',
      subscription: subscription
        ? {
            id: subscription.id,
            limit: subscription.requestLimit,
            processed: subscription.processedRequests,
            lastIncrement: subscription.lastIncrement,
            startsAt: subscription.startsAt,
            expireAt: subscription.expireAt,
          }
        : null,
    };
  }

  return {
    async resolve(privateKey, now) {
      if (!PRIVATE_KEY.test(privateKey)) return null;
      const keyHash = hashPrivateKey(privateKey);
      const cached = cache.get(keyHash);
      if (cached && cached.expires > now.getTime()) return cached.client;
      const startedAt = generation;
      let pending = loading.get(keyHash);
      if (!pending) {
        pending = load(keyHash, now).finally(() => loading.delete(keyHash));
        loading.set(keyHash, pending);
      }
      const client = await pending;
      if (startedAt !== generation) return client;
      if (cache.size >= MAX_ENTRIES) cache.clear();
      cache.set(keyHash, { client, expires: now.getTime() + (client ? TTL_MS : NEGATIVE_TTL_MS) });
      return client;
    },
  };
}

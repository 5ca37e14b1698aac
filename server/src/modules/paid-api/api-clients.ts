// DESIGN §5: key → app → account → subscription, cached in memory so the paid path makes no database round
// trip per request. Entries are dropped when the change feed says their app or account changed, and expire
// after a minute as a safety net. Unknown keys are remembered apart (so a flood of them cannot evict real ones), and
// each client address may make only a few database look-ups of keys it has not used before.
import { timingSafeEqual } from 'node:crypto';
import type { Entitlements } from '@afrofx/shared';
import { eq } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { ChangeFeed } from '../../change-feed';
import type { Database } from '../../db/client';
import { accounts, apiKeys, apps } from '../../db/schema';
import { hashPrivateKey } from '../api-keys/api-key-material';
import { servingNow } from '../subscriptions/subscriptions.repository';

export interface ApiClient {
  keyHash: string;
  appId: string;
  accountId: string;
  publicKey: string;
  premium: boolean;
  subscription: {
    id: string;
    planName: string;
    limit: number;
    /** What the plan opens (null: bought before entitlements existed, so everything). */
    entitlements: Entitlements | null;
    processed: number;
    lastIncrement: Date | null;
    startsAt: Date;
    expireAt: Date;
  } | null;
}

const TTL_MS = 60_000;
const MAX_ENTRIES = 50_000;
const UNKNOWN_TTL_MS = 30_000;
const MAX_UNKNOWN = 20_000;
/** Look-ups of unknown keys one client address may make per window before its look-ups are refused. */
export const MISSES_PER_ADDRESS = 30;
export const LOOKUP_WINDOW_MS = 10_000;
/** The shape generateKeyPair makes; anything else is refused without a lookup. */
const PRIVATE_KEY = /^sk_[A-Za-z0-9_-]{20,64}$/;

/** A client, no client for that key, or an address that tried too many unknown keys. */
export type Resolution = ApiClient | null | 'too-many-lookups';

export interface ApiClients {
  /** A key confirmed within the last minute answers at once; any other is looked up. */
  resolve(privateKey: string, now: Date, address: string): Resolution | Promise<Resolution>;
}

export function createApiClients(db: Database, changes: ChangeFeed): ApiClients {
  // Expired entries stay (until the LRU needs room) so that one can answer while the database cannot.
  const cache = new LRUCache<string, { client: ApiClient; expires: number }>({ max: MAX_ENTRIES });
  const unknown = new LRUCache<string, true>({ max: MAX_UNKNOWN, ttl: UNKNOWN_TTL_MS });
  const lookups = new LRUCache<string, { since: number; count: number }>({ max: 10_000 });
  const loading = new Map<string, Promise<ApiClient | null>>();
  let generation = 0;

  changes.subscribe((change) => {
    if (change.kind === 'rates' || change.kind === 'quota-flush') return;
    // A key unknown a moment ago may belong to an app that just generated it.
    unknown.clear();
    // Messages may have been missed while the feed was away: forget everything.
    if (change.kind === 'resync') cache.clear();
    else
      for (const [hash, { client }] of cache.entries()) {
        if (change.kind === 'app' ? client.appId === change.appId : client.accountId === change.accountId)
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
    const subscription = await servingNow(db, row.appId, now);
    return {
      keyHash,
      appId: row.appId,
      accountId: row.accountId,
      publicKey: row.publicKey,
      premium: row.state === 'premium_customer',
      subscription: subscription
        ? {
            id: subscription.id,
            planName: subscription.planName,
            limit: subscription.requestLimit,
            entitlements: subscription.entitlements,
            processed: subscription.processedRequests,
            lastIncrement: subscription.lastIncrement,
            startsAt: subscription.startsAt,
            expireAt: subscription.expireAt,
          }
        : null,
    };
  }

  const missesOf = (address: string, now: number) => {
    const window = lookups.get(address);
    return window && now - window.since <= LOOKUP_WINDOW_MS ? window : undefined;
  };
  function countLookup(address: string, now: number) {
    const window = missesOf(address, now);
    if (window) window.count++;
    else lookups.set(address, { since: now, count: 1 });
  }

  async function lookUp(
    keyHash: string,
    cached: { client: ApiClient } | undefined,
    now: Date,
    address: string,
  ): Promise<Resolution> {
    const startedAt = generation;
    let pending = loading.get(keyHash);
    if (!pending) {
      if ((missesOf(address, now.getTime())?.count ?? 0) >= MISSES_PER_ADDRESS) return 'too-many-lookups';
      // Counted as a miss before the look-up, so a burst of concurrent unknown keys cannot all get through;
      // a key that turns out valid gives it back.
      countLookup(address, now.getTime());
      pending = load(keyHash, now).then(
        (client) => {
          const window = client && missesOf(address, Date.now());
          if (window && window.count > 0) window.count--;
          return client;
        },
        // The database is away: a key it confirmed before keeps working; the change feed still revokes it.
        (err: unknown) => {
          if (cached) return cached.client;
          throw err;
        },
      );
      pending = pending.finally(() => loading.delete(keyHash));
      loading.set(keyHash, pending);
    }
    const client = await pending;
    if (startedAt !== generation) return client;
    if (client) cache.set(keyHash, { client, expires: now.getTime() + TTL_MS });
    else unknown.set(keyHash, true);
    return client;
  }

  return {
    resolve(privateKey, now, address) {
      if (!PRIVATE_KEY.test(privateKey)) return null;
      const keyHash = hashPrivateKey(privateKey);
      const cached = cache.get(keyHash);
      if (cached && cached.expires > now.getTime()) return cached.client;
      if (unknown.has(keyHash)) return null;
      return lookUp(keyHash, cached, now, address);
    },
  };
}

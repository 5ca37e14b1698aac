// Which store counts the quota: Redis when the deployment has it, else the process itself with the embedded
// database (one process), else the PostgreSQL server's conditional UPDATE.
import type { ChangeFeed } from '../../../change-feed';
import type { DatabaseHandle } from '../../../db/client';
import { createMemoryQuotaStore } from './memory';
import { createPostgresQuotaStore } from './postgres';
import { createRedisQuotaStore } from './redis';
import type { QuotaStore } from './store';

export type { QuotaOutcome, QuotaStore, QuotaSubject } from './store';
export { createMemoryQuotaStore, createPostgresQuotaStore, createRedisQuotaStore };

export interface QuotaStoreSettings {
  database: DatabaseHandle;
  redisUrl: string | undefined;
  /** Prefix of the Redis keys. */
  prefix: string;
  burstPerSecond: number;
  changes: ChangeFeed;
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

export function createQuotaStore(settings: QuotaStoreSettings): QuotaStore {
  const { database, redisUrl, burstPerSecond } = settings;
  if (redisUrl)
    return createRedisQuotaStore({
      db: database.db,
      redisUrl,
      prefix: settings.prefix,
      burstPerSecond,
      changes: settings.changes,
      log: settings.log,
    });
  return database.driver === 'pglite'
    ? createMemoryQuotaStore(database.db, burstPerSecond)
    : createPostgresQuotaStore(database.db, burstPerSecond);
}

import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { migrationsDir } from '../paths';
import { takingTurnsWithRequests } from './embedded-turns';
import * as schema from './schema';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  db: Database;
  driver: 'postgres' | 'pglite';
  /** The embedded engine itself, for the bulk paths drizzle has no words for (COPY). */
  pglite?: PGlite;
  /** The server's connection pool (its counts show what is checked out). */
  pool?: pg.Pool;
  migrate(): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl?: string;
  /**
   * Folder for PGlite's files; undefined keeps the embedded database in memory (tests). A new database, in memory or
   * in a folder with none yet, starts from a copy of a freshly migrated one (see migratedTemplate).
   */
  pgliteDir?: string;
  onError?: (err: Error) => void;
}

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      connectionTimeoutMillis: 10_000,
    });
    // DESIGN §7: without this handler one dropped idle connection crashes the process.
    pool.on('error', (err) => options.onError?.(err));
    guardCheckedOutClients(pool, options.onError);
    const db = drizzlePg(pool, { schema });
    return {
      db,
      driver: 'postgres',
      pool,
      migrate: () => migratePg(db, { migrationsFolder: migrationsDir }),
      ping: async () => {
        await db.execute(sql`select 1`);
      },
      close: () => pool.end(),
    };
  }
  const client = options.pgliteDir
    ? await openPgliteFolder(path.resolve(options.pgliteDir))
    : new PGlite({ loadDataDir: await migratedTemplate() });
  await client.waitReady;
  const statements = takingTurnsWithRequests(client);
  const db = drizzlePglite({ client: statements, schema });
  return {
    db: db as unknown as Database,
    driver: 'pglite',
    pglite: statements,
    migrate: () => migratePglite(db, { migrationsFolder: migrationsDir }),
    ping: async () => {
      await client.query('select 1');
    },
    close: () => client.close(),
  };
}

/** How long a checked-out client whose connection died is left to its holder before the pool takes it back. */
const DEAD_CLIENT_RELEASE_MS = 2_000;

/**
 * pg-pool listens for errors only on idle clients: a connection that dies while its client is checked out (a
 * PostgreSQL restart between two statements) emits an 'error' nobody hears, and that crashes the process. And
 * drizzle-orm 0.45's transaction() sends BEGIN outside its try, so a client whose BEGIN fails is never released:
 * each such restart would take a client from the pool for good. Every client gets a listener of its own, and one
 * still checked out a while after its connection died is released, destroyed (its holder's next query failed at
 * once, so a holder that still has it is one that forgot it).
 */
function guardCheckedOutClients(pool: pg.Pool, onError?: (err: Error) => void) {
  const checkedOut = new Set<pg.PoolClient>();
  pool.on('acquire', (client) => checkedOut.add(client));
  pool.on('release', (_err, client) => checkedOut.delete(client));
  pool.on('connect', (client) => {
    client.on('error', (err) => {
      // An idle client's error reaches the pool's own 'error' listener.
      if (!checkedOut.has(client)) return;
      onError?.(err);
      setTimeout(() => {
        if (!checkedOut.has(client)) return;
        checkedOut.delete(client);
        client.release(err);
      }, DEAD_CLIENT_RELEASE_MS).unref();
    });
  });
}

/** A folder that already holds a database opens as it is; an empty one gets the migrated copy, not an initdb. */
async function openPgliteFolder(dir: string): Promise<PGlite> {
  if (existsSync(path.join(dir, 'PG_VERSION'))) return new PGlite(dir);
  return new PGlite(dir, { loadDataDir: await migratedTemplate() });
}

/**
 * A dump of an in-memory PGlite with every migration applied, made once per set of migrations and kept in the
 * system's temporary folder. A new PGlite runs initdb and every migration, which takes seconds; loading this dump
 * takes a fraction of that, and the test suites, the fault run and the browser tests start dozens of databases.
 * migrate() still runs on the copy and finds nothing to do.
 */
let template: Promise<Blob> | undefined;
export function migratedTemplate(): Promise<Blob> {
  template ??= readOrMakeTemplate().catch((err: unknown) => {
    template = undefined;
    throw err;
  });
  return template;
}

async function readOrMakeTemplate(): Promise<Blob> {
  const file = path.join(tmpdir(), `afrofx-pglite-template-${migrationsFingerprint()}.tar`);
  try {
    return new Blob([await readFile(file)]);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const fresh = new PGlite();
  try {
    await migratePglite(drizzlePglite(fresh), { migrationsFolder: migrationsDir });
    const dump = await fresh.dumpDataDir('none');
    // Parallel test processes may make it at the same time: each writes a file of its own, and the rename is atomic.
    const partial = `${file}.${randomBytes(6).toString('hex')}.partial`;
    await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
    await rename(partial, file);
    return dump;
  } finally {
    await fresh.close();
  }
}

/** Changes when a migration or the PGlite release changes, so a stale template is never loaded. */
function migrationsFingerprint(): string {
  const hash = createHash('sha256');
  const pgliteDist = path.dirname(require.resolve('@electric-sql/pglite'));
  hash.update(readFileSync(path.join(pgliteDist, '..', 'package.json')));
  const files = readdirSync(migrationsDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(migrationsDir, path.join(entry.parentPath, entry.name)))
    .sort();
  for (const name of files) {
    hash.update(name);
    hash.update(readFileSync(path.join(migrationsDir, name)));
  }
  return hash.digest('hex').slice(0, 16);
}

// The embedded databases of the tests start from one migrated copy (db/client.ts): each must still be a database of
// its own, with every migration applied.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase, type DatabaseHandle } from '../src/db/client';
import { mailingListSubscribers } from '../src/db/schema';
import { migrationsDir } from '../src/paths';

const run = process.env.DATABASE_URL ? it.skip : it;

describe('in-memory databases from the migrated template', () => {
  const opened: DatabaseHandle[] = [];
  afterAll(() => Promise.all(opened.map((database) => database.close())));

  run('are separate databases, each with every migration applied', async () => {
    const [first, second] = await Promise.all([openDatabase({}), openDatabase({})]);
    opened.push(first!, second!);
    await Promise.all([first!.migrate(), second!.migrate()]);

    const migrationFiles = (await readdir(migrationsDir)).filter((name) => name.endsWith('.sql'));
    const applied = await first!.pglite!.query<{ count: number }>(
      'select count(*)::int as count from drizzle.__drizzle_migrations',
    );
    expect(applied.rows[0]!.count).toBe(migrationFiles.length);

    await first!.db.insert(mailingListSubscribers).values({ email: 'only-in-first@example.com' });
    expect(await first!.db.select().from(mailingListSubscribers)).toHaveLength(1);
    expect(await second!.db.select().from(mailingListSubscribers)).toHaveLength(0);

    const templates = (await readdir(tmpdir())).filter((name) =>
      /^afrofx-pglite-template-\w+\.tar$/.test(name),
    );
    expect(templates.length).toBeGreaterThan(0);
  });

  run('start a new folder from it and open an existing folder as it is', async () => {
    const parent = await mkdtemp(path.join(tmpdir(), 'afrofx-template-folder-'));
    const folder = path.join(parent, 'pglite');
    try {
      const fresh = await openDatabase({ pgliteDir: folder });
      const applied = await fresh.pglite!.query<{ count: number }>(
        'select count(*)::int as count from drizzle.__drizzle_migrations',
      );
      const migrationFiles = (await readdir(migrationsDir)).filter((name) => name.endsWith('.sql'));
      expect(applied.rows[0]!.count).toBe(migrationFiles.length);
      await fresh.db.insert(mailingListSubscribers).values({ email: 'kept@example.com' });
      await fresh.close();

      const reopened = await openDatabase({ pgliteDir: folder });
      await reopened.migrate();
      expect(
        await reopened.db.select({ email: mailingListSubscribers.email }).from(mailingListSubscribers),
      ).toEqual([{ email: 'kept@example.com' }]);
      await reopened.close();
    } finally {
      await rm(parent, { recursive: true, force: true });
    }
  });
});

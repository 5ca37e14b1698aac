// The embedded database runs on the API's thread: a burst of statements must leave the event loop turns, so that a
// paying customer's request is read while a sign-up flood's accounts are written (db/embedded-turns.ts).
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { migratedTemplate, openDatabase, type DatabaseHandle } from '../src/db/client';

const run = process.env.DATABASE_URL ? it.skip : it;

/** A statement that keeps the engine busy for a while, about a millisecond on a fast machine. */
const BUSY_STATEMENT = 'select count(*) from generate_series(1, 20000)';
const BURST = 200;

/** Runs the burst through `query` and counts the statements finished when the event loop's next turn came. */
async function finishedByTheNextTurn(query: (text: string) => Promise<unknown>): Promise<number> {
  let finished = 0;
  let atTheTurn: number | undefined;
  setImmediate(() => {
    atTheTurn = finished;
  });
  await Promise.all(Array.from({ length: BURST }, () => query(BUSY_STATEMENT).then(() => finished++)));
  await new Promise((resolve) => setImmediate(resolve));
  return atTheTurn!;
}

describe('the embedded database between statements', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    if (!process.env.DATABASE_URL) database = await openDatabase({});
  });
  afterAll(() => database?.close());

  run('PGlite alone runs a queue of statements without a turn of the event loop', async () => {
    const engine = await PGlite.create({ loadDataDir: await migratedTemplate() });
    try {
      expect(await finishedByTheNextTurn((text) => engine.query(text))).toBe(BURST);
    } finally {
      await engine.close();
    }
  });

  run('lets the event loop in while a burst of statements is still queued', async () => {
    const atTheTurn = await finishedByTheNextTurn((text) => database.db.execute(sql.raw(text)));
    expect(atTheTurn).toBeGreaterThan(0);
    expect(atTheTurn).toBeLessThan(BURST);
  });

  run('runs the statements queued after one that fails', async () => {
    const results = await Promise.allSettled([
      database.db.execute(sql`select 1 as one`),
      database.db.execute(sql`select * from no_such_table`),
      database.db.execute(sql`select 2 as two`),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });

  run('keeps a transaction whole while other statements wait', async () => {
    await database.db.execute(sql`create table turn_probe (n int)`);
    const outside = Array.from({ length: 20 }, () => database.db.execute(sql.raw(BUSY_STATEMENT)));
    const counted = database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into turn_probe values (1), (2)`);
      const inside = await tx.execute(sql`select count(*)::int as n from turn_probe`);
      await tx.execute(sql`delete from turn_probe`);
      return inside as unknown as { rows: Array<{ n: number }> };
    });
    await Promise.all(outside);
    expect((await counted).rows).toEqual([{ n: 2 }]);
  });
});

// A PostgreSQL connection cut while its client is checked out of the pool (a restart between two statements, or
// right at a transaction's BEGIN) must neither crash the process nor keep that client out of the pool for good.
// Needs a PostgreSQL server: runs when DATABASE_URL is set.
import { sql } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '../src/db/client';
import { startFaultProxy, type FaultProxy } from './support/fault-proxy';
import { createScratchDatabase, type ScratchDatabase } from './support/scratch-database';
import { eventually } from './support/test-app';

const serverUrl = process.env.DATABASE_URL;
const describeWithPostgres = serverUrl ? describe : describe.skip;

describeWithPostgres('a PostgreSQL connection cut under a checked-out client', () => {
  let scratch: ScratchDatabase;
  let proxy: FaultProxy;
  let database: DatabaseHandle;
  const errors: Error[] = [];

  beforeAll(async () => {
    scratch = await createScratchDatabase(serverUrl!, 'afrofx_cut');
    const target = new URL(scratch.url);
    proxy = await startFaultProxy(target.hostname, Number(target.port || 5432));
    database = await openDatabase({
      databaseUrl: proxy.url(scratch.url),
      onError: (err) => errors.push(err),
    });
  });
  afterAll(async () => {
    await database?.close();
    await proxy?.close();
    await scratch?.drop();
  });

  it('fails the transaction whose BEGIN was cut, reports the error, and gives its client back to the pool', async () => {
    await database.ping();
    const pool = database.pool!;
    expect(pool.totalCount).toBe(1);

    proxy.stall();
    const transaction = database.db.transaction(async (tx) => tx.execute(sql`select 1`));
    const outcome = transaction.then(
      () => 'committed',
      (err: unknown) => err,
    );
    // BEGIN is on the wire, held by the proxy, when the connection goes.
    await eventually(async () => expect(proxy.heldBytes()).toBeGreaterThan(0));
    proxy.cut();
    expect(await outcome).toBeInstanceOf(Error);
    await eventually(async () => expect(errors.length).toBeGreaterThan(0));

    // drizzle never releases a client whose BEGIN failed; the pool must get it back (destroyed) all the same.
    await eventually(async () => expect(pool.totalCount - pool.idleCount).toBe(0));

    proxy.restore();
    const result = await database.db.transaction(async (tx) => tx.execute(sql`select 41 + 1 as answer`));
    expect((result as unknown as { rows: Array<{ answer: number }> }).rows[0]!.answer).toBe(42);
    expect(pool.totalCount - pool.idleCount).toBe(0);
  });
});

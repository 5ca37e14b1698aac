// request_logs is partitioned by UTC day and keeps REQUEST_LOG_RETENTION_DAYS days; older days are
// dropped whole while their daily roll-ups, which the analytics read, stay. The request log pages by cursor.
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { formatUtcDate } from '@afrofx/shared';
import { openDatabase, type DatabaseHandle } from '../src/db/client';
import { requestLogRetentionJob } from '../src/jobs/request-log-retention.job';
import { addDays, partitionOf } from '../src/modules/requests/request-log-partitions';
import {
  createRequestsService,
  PARTITION_DAYS_AHEAD,
  type NewRequestLog,
  type RequestsService,
} from '../src/modules/requests/requests.service';
import { developerFactory, type Developer } from './support/developers';
import { createScratchDatabase, type ScratchDatabase } from './support/scratch-database';
import { createTestApp, eventually, type TestApp } from './support/test-app';

const DAY_MS = 86_400_000;
const today = () => formatUtcDate(new Date());
const at = (day: string, time = '12:00:00.000') => new Date(`${day}T${time}Z`);

const entry = (appId: string, createdAt: Date, n = 0): NewRequestLog => ({
  appId,
  host: 'api.afrofx.test',
  agent: 'retention-test',
  ipAddress: '102.89.0.1',
  originalUrl: `/v1/rates?n=${n}`,
  status: 200,
  latencyMs: 2,
  createdAt,
});

async function rowsOf<T>(database: DatabaseHandle, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await database.db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** The days of the partitions attached to request_logs, oldest first. */
async function attachedDays(requests: RequestsService): Promise<string[]> {
  return (await requests.partitions.tables()).filter((t) => t.attached).map((t) => t.day);
}

/** The roll-up rows of an app, as the analytics read them. */
const rollUps = (database: DatabaseHandle, appId: string) =>
  rowsOf<{ day: string; count: number; entries: number }>(
    database,
    sql`SELECT day::text AS day, count, entries FROM request_daily_counts WHERE app_id = ${appId} ORDER BY day`,
  );

const logDays = (database: DatabaseHandle, appId: string) =>
  rowsOf<{ day: string; rows: number }>(
    database,
    sql`SELECT (created_at AT TIME ZONE 'UTC')::date::text AS day, count(*)::int AS rows
        FROM request_logs WHERE app_id = ${appId} GROUP BY 1 ORDER BY 1`,
  );

let t: TestApp;
let dev: Developer;
const signUpAndActivate = developerFactory(() => t, 'retention', 2);
beforeAll(async () => {
  t = await createTestApp();
  dev = await signUpAndActivate();
});
afterAll(() => t.close());

const requests = () => t.runtime.services.requests;
const database = () => t.runtime.database;
const get = (url: string) =>
  t.app.inject({ method: 'GET', url: `/v1/${url}`, headers: { authorization: `Bearer ${dev.token}` } });

describe('request_logs partitions', () => {
  it('is a table partitioned by range on created_at, its page index and primary key declared on the parent', async () => {
    const [table] = await rowsOf<{ kind: string; key: string }>(
      database(),
      sql`SELECT c.relkind::text AS kind, pg_get_partkeydef(c.oid) AS key FROM pg_class c WHERE c.oid = 'request_logs'::regclass`,
    );
    expect(table).toEqual({ kind: 'p', key: 'RANGE (created_at)' });
    const indexes = await rowsOf<{ name: string }>(
      database(),
      sql`SELECT indexrelid::regclass::text AS name FROM pg_index WHERE indrelid = 'request_logs'::regclass ORDER BY 1`,
    );
    expect(indexes.map((i) => i.name)).toEqual([
      'request_logs_app_created_idx',
      'request_logs_created_at_id_pk',
    ]);
  });

  it('lands inserts on both sides of midnight UTC, in a day nobody created a partition for', async () => {
    const appId = await t.newApp(dev, 'Midnight');
    // Far enough ahead that neither the migration nor the job made it.
    const day = addDays(today(), 40);
    const next = addDays(day, 1);
    expect(await attachedDays(requests())).not.toContain(day);
    const times = [at(day, '00:00:00.000'), at(day, '23:59:59.999'), at(next, '00:00:00.000')];
    await requests().record(times.map((time, i) => entry(appId, time, i)));

    const landed = await rowsOf<{ partition: string; created_at: string }>(
      database(),
      sql`SELECT tableoid::regclass::text AS partition, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS') AS created_at
          FROM request_logs WHERE app_id = ${appId} ORDER BY created_at`,
    );
    expect(landed).toEqual([
      { partition: partitionOf(day), created_at: `${day}T00:00:00.000` },
      { partition: partitionOf(day), created_at: `${day}T23:59:59.999` },
      { partition: partitionOf(next), created_at: `${next}T00:00:00.000` },
    ]);
    expect(await rollUps(database(), appId)).toEqual([
      { day, count: 2, entries: 2 },
      { day: next, count: 1, entries: 1 },
    ]);
  });

  it('writes nothing of a batch that names a deleted app: no row, no roll-up, of any app in it', async () => {
    const kept = await t.newApp(dev, 'Kept');
    const gone = await t.newApp(dev, 'Gone');
    await database().db.execute(sql`DELETE FROM apps WHERE id = ${gone}`);
    const now = new Date();
    await expect(requests().record([entry(kept, now, 1), entry(gone, now, 2)])).rejects.toThrow();
    for (const appId of [kept, gone]) {
      expect(await logDays(database(), appId)).toEqual([]);
      expect(await rollUps(database(), appId)).toEqual([]);
    }
  });

  it('creates today and the next days ahead, and a second run finds nothing to do', async () => {
    const now = new Date();
    await requests().maintainPartitions(90, now);
    const days = await attachedDays(requests());
    for (let ahead = 0; ahead <= PARTITION_DAYS_AHEAD; ahead++)
      expect(days).toContain(addDays(today(), ahead));
    expect(await requests().maintainPartitions(90, now)).toEqual({ created: [], dropped: [] });
  });
});

describe('retention', () => {
  it('drops exactly the days older than the retention and keeps every roll-up, analytics unchanged', async () => {
    const appId = await t.newApp(dev, 'Retention');
    const now = new Date();
    const day = (daysAgo: number) => addDays(formatUtcDate(now), -daysAgo);
    const entries = [95, 91, 90, 89, 1, 0].flatMap((daysAgo) =>
      [0, 1, 2].map((n) =>
        entry(appId, at(day(daysAgo), daysAgo === 0 ? '00:00:00.000' : '12:00:00.000'), n),
      ),
    );
    await requests().record(entries);
    // A row without a roll-up, as logged before the roll-up existed: the drop must count it first.
    await database().db.execute(
      sql`INSERT INTO request_logs (app_id, host, agent, ip_address, original_url, status, latency_ms, count, created_at)
          VALUES (${appId}, 'h', 'a', 'i', '/v1/rates', 200, 1, 7, ${at(day(91), '13:00:00.000').toISOString()})`,
    );
    const analyticsBefore = await requests().analytics(appId, now);
    const rollUpsBefore = await rollUps(database(), appId);

    const { dropped } = await requests().maintainPartitions(90, now);

    expect(dropped).toEqual(expect.arrayContaining([day(95), day(91)]));
    expect(dropped.every((d) => d < day(90))).toBe(true);
    const days = await attachedDays(requests());
    expect(days[0]! >= day(90)).toBe(true);
    expect(days).toEqual(expect.arrayContaining([day(90), day(89), day(1), day(0)]));
    expect(await logDays(database(), appId)).toEqual([
      { day: day(90), rows: 3 },
      { day: day(89), rows: 3 },
      { day: day(1), rows: 3 },
      { day: day(0), rows: 3 },
    ]);
    // The roll-ups stay, the one that missed the extra row now counts it.
    expect(await rollUps(database(), appId)).toEqual(
      rollUpsBefore.map((r) => (r.day === day(91) ? { day: r.day, count: 3 + 7, entries: 4 } : r)),
    );
    expect(await requests().analytics(appId, now)).toEqual(analyticsBefore);
    // The log's count is what is left to page through.
    const { pagination } = (await get(`account/app_request/${appId}`)).json();
    expect(pagination.count).toBe(12);
  });

  it('finishes a day a cut-off run left detached: its roll-up completed, then dropped', async () => {
    const appId = await t.newApp(dev, 'Interrupted');
    const now = new Date();
    const old = addDays(formatUtcDate(now), -120);
    await requests().record([entry(appId, at(old), 1)]);
    await database().db.execute(
      sql`INSERT INTO request_logs (app_id, host, agent, ip_address, original_url, status, latency_ms, count, created_at)
          VALUES (${appId}, 'h', 'a', 'i', '/v1/rates', 200, 1, 1, ${at(old, '14:00:00.000').toISOString()})`,
    );
    const [table] = (await requests().partitions.tables()).filter((p) => p.day === old);
    // The run got as far as the detach.
    await requests().partitions.detach(table!);
    expect(await attachedDays(requests())).not.toContain(old);

    const { dropped } = await requests().maintainPartitions(90, now);
    expect(dropped).toContain(old);
    expect((await requests().partitions.tables()).map((p) => p.day)).not.toContain(old);
    expect(await rollUps(database(), appId)).toEqual([{ day: old, count: 2, entries: 2 }]);
  });

  it('runs as the hourly job with REQUEST_LOG_RETENTION_DAYS', async () => {
    const appId = await t.newApp(dev, 'Job');
    const now = Date.now();
    const days = [11, 10, 9].map((n) => formatUtcDate(new Date(now - n * DAY_MS)));
    await requests().record(days.map((d, i) => entry(appId, at(d), i)));
    const logged: object[] = [];
    await requestLogRetentionJob({
      services: t.runtime.services,
      config: { ...t.config, requestLogRetentionDays: 10 },
      log: { info: (obj) => logged.push(obj), error: () => {} },
      now: () => now,
    });
    expect(await logDays(database(), appId)).toEqual([
      { day: days[1], rows: 1 },
      { day: days[2], rows: 1 },
    ]);
    expect(logged).toEqual([expect.objectContaining({ dropped: expect.arrayContaining([days[0]]) })]);
  });
});

describe('GET account/app_request/{appId} by cursor', () => {
  let appId: string;
  const expected: string[] = [];
  beforeAll(async () => {
    appId = await t.newApp(dev, 'Cursor');
    const day = addDays(today(), -2);
    const next = addDays(day, 1);
    for (const d of [day, next]) await requests().partitions.createNow(d);
    // 9 instants, 5 rows each: ties in time, microseconds the JavaScript clock cannot hold, and midnight between.
    const instants = [
      `${day} 23:59:59.999998+00`,
      `${day} 23:59:59.999999+00`,
      `${next} 00:00:00+00`,
      `${next} 00:00:00.000001+00`,
      `${next} 00:00:00.000500+00`,
      `${next} 00:00:01+00`,
      `${next} 08:30:00.123456+00`,
      `${next} 08:30:00.123457+00`,
      `${next} 12:00:00+00`,
    ];
    for (const instant of instants) {
      await database().db.execute(
        sql`INSERT INTO request_logs (app_id, host, agent, ip_address, original_url, status, latency_ms, created_at)
            SELECT ${appId}, 'h', 'a', 'i', '/v1/rates?at=' || ${instant} || '&n=' || n, 200, 1, ${instant}::timestamptz
            FROM generate_series(1, 5) AS n`,
      );
    }
    const all = await rowsOf<{ id: string }>(
      database(),
      sql`SELECT id::text AS id FROM request_logs WHERE app_id = ${appId} ORDER BY created_at DESC, id DESC`,
    );
    expected.push(...all.map((r) => r.id));
  });

  it('returns every row exactly once across pages, newest first, ties in time included, and ends with cursor null', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await get(`account/app_request/${appId}${cursor ? `?cursor=${cursor}` : ''}`);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      seen.push(...body.data.map((e: { _id: string }) => e._id));
      expect(body.pagination.next).toBe(cursor === null ? 2 : null);
      cursor = body.pagination.cursor;
      pages++;
    } while (cursor !== null);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(45);
    expect(seen).toEqual(expected);
  });

  it('pages of 20 by page number and by cursor hold the same rows', async () => {
    const first = (await get(`account/app_request/${appId}?page=1`)).json();
    const byNumber = (await get(`account/app_request/${appId}?page=2`)).json();
    const byCursor = (await get(`account/app_request/${appId}?cursor=${first.pagination.cursor}`)).json();
    expect(byCursor.data).toEqual(byNumber.data);
  });

  it.each([
    ['not base64url', '!!!'],
    ['not a position', Buffer.from('yesterday').toString('base64url')],
    ['an id that is not a number', Buffer.from('1700000000000000.x').toString('base64url')],
    ['empty', ''],
  ])('answers a cursor that is %s with 400 and a message', async (_what, cursor) => {
    const res = await get(`account/app_request/${appId}?cursor=${cursor}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/cursor/);
  });

  it('refuses page and cursor together', async () => {
    const first = (await get(`account/app_request/${appId}`)).json();
    const res = await get(`account/app_request/${appId}?page=2&cursor=${first.pagination.cursor}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Pass either page or cursor, not both.');
  });
});

// PostgreSQL only: DETACH … CONCURRENTLY, which PGlite's single connection cannot show.
const serverUrl = process.env.DATABASE_URL;
const describeWithPostgres = serverUrl ? describe : describe.skip;

describeWithPostgres('retention on PostgreSQL, cut off mid-way', () => {
  let scratch: ScratchDatabase;
  let handle: DatabaseHandle;
  let service: RequestsService;
  let reader: pg.Client;
  const appId = '00000000-0000-4000-8000-0000000000a1';
  const accountId = '00000000-0000-4000-8000-000000000001';

  beforeAll(async () => {
    scratch = await createScratchDatabase(serverUrl!, 'afrofx_retention');
    handle = await openDatabase({ databaseUrl: scratch.url, onError: () => {} });
    await handle.migrate();
    await handle.db.execute(
      sql`INSERT INTO accounts (id, email, password_hash, role) VALUES (${accountId}, 'r@example.com', 'x', 'developer')`,
    );
    await handle.db.execute(
      sql`INSERT INTO apps (id, account_id, name) VALUES (${appId}, ${accountId}, 'Cut')`,
    );
    service = createRequestsService(handle.db);
    reader = new pg.Client({ connectionString: scratch.url });
    await reader.connect();
  });
  afterAll(async () => {
    await reader?.end();
    await handle?.close();
    await scratch?.drop();
  });

  it('inserts go on while a day detaches; a run whose connection is cut leaves the table whole and the next run completes it', async () => {
    const now = new Date();
    const day = (daysAgo: number) => addDays(formatUtcDate(now), -daysAgo);
    await service.record([95, 93, 1, 0].map((d, i) => entry(appId, at(day(d)), i)));
    const rollUpsBefore = await rollUps(handle, appId);

    // A reader whose snapshot predates the detach: DETACH … CONCURRENTLY waits for it in its second step.
    await reader.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
    await reader.query('SELECT count(*) FROM request_logs');
    const run = service.maintainPartitions(90, now).then(
      () => 'completed',
      (err: unknown) => err,
    );
    // Inside the reader's transaction pg_stat_activity is read once and kept: each look clears that copy first.
    const waiting = async () => {
      await reader.query('SELECT pg_stat_clear_snapshot()');
      const { rows } = await reader.query<{ pid: number }>(
        "SELECT pid FROM pg_stat_activity WHERE query LIKE 'ALTER TABLE request_logs DETACH PARTITION%CONCURRENTLY' AND state = 'active'",
      );
      return rows;
    };
    const detaching = await eventually(async () => {
      const active = await waiting();
      expect(active).toHaveLength(1);
      return active;
    }, 30_000);

    // Meanwhile today's inserts are not held up.
    await service.record([entry(appId, at(day(0), '00:00:01.000'), 9)]);

    // The connection of the detaching run dies.
    const killer = new pg.Client({ connectionString: scratch.url });
    await killer.connect();
    await killer.query('SELECT pg_terminate_backend($1)', [detaching[0]!.pid]);
    await killer.end();
    expect(await run).toBeInstanceOf(Error);
    await reader.query('COMMIT');

    const halfway = await service.partitions.tables();
    expect(halfway.filter((p) => p.detachPending).map((p) => p.day)).toEqual([day(95)]);
    // Half-detached, the table still answers reads and takes writes for the other days.
    await service.record([entry(appId, at(day(1), '18:00:00.000'), 10)]);

    const { dropped } = await service.maintainPartitions(90, now);
    expect(dropped).toEqual([day(95), day(93)]);
    const after = await service.partitions.tables();
    expect(after.filter((p) => p.detachPending || !p.attached)).toEqual([]);
    expect(after.map((p) => p.day)).not.toContain(day(95));
    expect(await logDays(handle, appId)).toEqual([
      { day: day(1), rows: 2 },
      { day: day(0), rows: 2 },
    ]);
    const kept = await rollUps(handle, appId);
    expect(kept.filter((r) => r.day < day(90))).toEqual(rollUpsBefore.filter((r) => r.day < day(90)));
  });
});

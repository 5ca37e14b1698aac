// `npm run bench:request-log`: seeds one app with 10,000,000 request-log rows over the last 90 days on a
// PostgreSQL server and times, through app.inject, the request log's first page, a page 1,000 pages deep (by cursor,
// and by page number for comparison) and the analytics; then the retention's drop of the oldest day while another
// connection keeps inserting, with the inserts' latencies before and during the drop. Targets: each read < 50 ms,
// the drop < 1 s, inserts not held up.
// Needs DATABASE_URL: a bench database of its own is created on that server and dropped afterwards (nothing is
// written to the database DATABASE_URL names). BENCH_ROWS and BENCH_RUNS override the defaults.
import { loadavg } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { formatUtcDate } from '@afrofx/shared';
import { buildApp } from '../server/src/app';
import { loadConfig } from '../server/src/config';
import { accounts, apps } from '../server/src/db/schema';
import { addDays } from '../server/src/modules/requests/request-log-partitions';
import type { NewRequestLog } from '../server/src/modules/requests/requests.service';
import { createRuntime } from '../server/src/runtime';
import { createScratchDatabase } from '../server/test/support/scratch-database';

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const DAYS = 90;
const PAGE_SIZE = 20;
const DEEP_PAGE = 1_000;
const TARGET_READ_MS = 50;
const TARGET_DROP_MS = 1_000;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function summary(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  return { median: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted.at(-1) ?? 0 };
}

async function time(runs: number, call: () => Promise<{ statusCode: number; body: string }>) {
  await call();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = process.hrtime.bigint();
    const res = await call();
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
    if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}: ${res.body}`);
  }
  return summary(samples);
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
const n = (value: number) => value.toLocaleString('en-US');

async function main() {
  if (!process.env.DATABASE_URL) {
    console.error('bench:request-log needs a PostgreSQL server: set DATABASE_URL.');
    process.exit(2);
  }
  const [load1, load5] = loadavg();
  console.log(`machine load before the bench: ${load1!.toFixed(2)} (1 min), ${load5!.toFixed(2)} (5 min)`);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'afrofx-request-log-bench-'));
  const benchDb = await createScratchDatabase(process.env.DATABASE_URL, 'afrofx_bench');
  console.log(`request-log bench: database ${benchDb.name}; ${n(ROWS)} rows over ${DAYS} days`);
  try {
    const config = loadConfig({
      NODE_ENV: 'development',
      DATA_DIR: dataDir,
      DATABASE_URL: benchDb.url,
      DEMO_DATA: 'false',
      WEB_DIST: '',
      LOG_LEVEL: 'warn',
    });
    const runtime = await createRuntime(config);
    const { db } = runtime.database;
    const requests = runtime.services.requests;
    const rows = async <T>(query: ReturnType<typeof sql>) =>
      ((await db.execute(query)) as unknown as { rows: T[] }).rows;
    try {
      const [account] = await db
        .insert(accounts)
        .values({
          email: 'request-log-bench@example.com',
          passwordHash: 'not-used',
          role: 'developer',
          isActivated: true,
        })
        .returning();
      const [app] = await db
        .insert(apps)
        .values({ accountId: account!.id, name: 'Request-log bench' })
        .returning();
      const appId = app!.id;

      // The 90 days before today; the oldest is the one the retention drop takes (keeping 89).
      const now = new Date();
      const today = formatUtcDate(now);
      const seedDays = Array.from({ length: DAYS }, (_, i) => addDays(today, i - DAYS));
      await requests.maintainPartitions(DAYS, now);
      const seedStarted = Date.now();
      for (const [i, day] of seedDays.entries()) {
        const perDay = Math.floor(ROWS / DAYS) + (i < ROWS % DAYS ? 1 : 0);
        await requests.partitions.createNow(day);
        // One statement a day; the times spread over the day, the values vary like real traffic.
        await db.execute(sql`
          INSERT INTO request_logs (app_id, host, agent, ip_address, original_url, status, latency_ms, count, created_at)
          SELECT ${appId}::uuid, 'api.afrofx.local',
            (ARRAY['axios/1.7.9','python-requests/2.32.3','curl/8.5.0','node-fetch/3.3.2','Go-http-client/2.0'])[1 + g % 5],
            '102.89.' || (g / 256) % 256 || '.' || g % 256,
            (ARRAY['/v1/rates','/v1/rates?market=bank','/v1/rates?base=naira&asset=dollar','/v1/currencies'])[1 + g % 4],
            CASE WHEN g % 37 = 0 THEN 429 ELSE 200 END, 2 + (g % 180) / 10.0, 1,
            ${`${day} 00:00:00+00`}::timestamptz + (g * ${86_400 / perDay}::float8) * interval '1 second'
          FROM generate_series(0, ${perDay - 1}) AS g`);
        await db.execute(sql`
          INSERT INTO request_daily_counts (app_id, day, count, entries) VALUES (${appId}, ${day}, ${perDay}, ${perDay})`);
        if ((i + 1) % 10 === 0) {
          const seconds = (Date.now() - seedStarted) / 1000;
          console.log(`  seeded ${i + 1} days in ${seconds.toFixed(0)} s`);
        }
      }
      await db.execute(sql`ANALYZE request_logs`);
      const seedSeconds = (Date.now() - seedStarted) / 1000;
      const [{ total } = { total: 0 }] = await rows<{ total: number }>(
        sql`SELECT count(*)::int AS total FROM request_logs`,
      );

      const server = await buildApp(runtime);
      await server.ready();
      try {
        const token = server.issueToken({ sub: account!.id, role: 'developer', ver: account!.tokenVersion });
        const headers = { authorization: `Bearer ${token}` };
        const get = (url: string) => server.inject({ method: 'GET', url: `/v1/account/${url}`, headers });

        // The cursor the API hands out at the end of page 1,000: the last row of page 999.
        const [last] = await rows<{ micros: string; id: string }>(sql`
          SELECT (extract(epoch FROM created_at) * 1000000)::bigint::text AS micros, id::text AS id
          FROM request_logs WHERE app_id = ${appId} ORDER BY created_at DESC, id DESC
          OFFSET ${(DEEP_PAGE - 1) * PAGE_SIZE - 1} LIMIT 1`);
        const deepCursor = Buffer.from(`${last!.micros}.${last!.id}`).toString('base64url');
        const byCursor = (await get(`app_request/${appId}?cursor=${deepCursor}`)).json();
        const byNumber = (await get(`app_request/${appId}?page=${DEEP_PAGE}`)).json();
        if (
          byCursor.data?.length !== PAGE_SIZE ||
          JSON.stringify(byCursor.data) !== JSON.stringify(byNumber.data)
        ) {
          throw new Error('page 1,000 by cursor and by number differ');
        }

        // The floor on this machine: an authenticated call that reads one row, through the same app.inject.
        const floor = await time(RUNS, () => get(`fetch_subscription/${appId}`));
        const firstPage = await time(RUNS, () => get(`app_request/${appId}`));
        const deepPage = await time(RUNS, () => get(`app_request/${appId}?cursor=${deepCursor}`));
        const deepOffset = await time(Math.min(RUNS, 10), () =>
          get(`app_request/${appId}?page=${DEEP_PAGE}`),
        );
        const analytics = await time(RUNS, () => get(`app_request_analytics/${appId}`));
        const before = (await get(`app_request_analytics/${appId}`)).json().data;

        // Inserts keep coming, as the paid API's log flushes do, before and during the drop of the oldest day.
        const inserts: Array<{ at: number; ms: number }> = [];
        let inserting = true;
        const inserter = (async () => {
          let i = 0;
          while (inserting) {
            const batch: NewRequestLog[] = Array.from({ length: 100 }, (_, k) => ({
              appId,
              host: 'api.afrofx.local',
              agent: 'bench-inserter',
              ipAddress: '102.89.0.1',
              originalUrl: `/v1/rates?i=${i}&k=${k}`,
              status: 200,
              latencyMs: 2,
              createdAt: new Date(),
            }));
            const started = performance.now();
            await requests.record(batch);
            inserts.push({ at: started, ms: performance.now() - started });
            i++;
          }
        })();
        await new Promise((resolve) => setTimeout(resolve, 2_000));
        const dropStarted = performance.now();
        const { dropped } = await requests.maintainPartitions(DAYS - 1, now);
        const dropEnded = performance.now();
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        inserting = false;
        await inserter;
        if (dropped.length !== 1 || dropped[0] !== seedDays[0]) {
          throw new Error(`expected to drop ${seedDays[0]}, dropped ${dropped.join(', ')}`);
        }
        const after = (await get(`app_request_analytics/${appId}`)).json().data;
        if (after.monthCount < before.monthCount) throw new Error('the analytics lost counts with the drop');
        const inWindow = (from: number, to: number) =>
          summary(inserts.filter((x) => x.at + x.ms >= from && x.at <= to).map((x) => x.ms));
        const calm = inWindow(0, dropStarted);
        const during = inWindow(dropStarted, dropEnded);
        const duringCount = inserts.filter((x) => x.at + x.ms >= dropStarted && x.at <= dropEnded).length;
        const dropMs = dropEnded - dropStarted;

        const verdict = (value: number, target: number) => (value < target ? 'met' : 'NOT met');
        console.log(
          `\nresult (PostgreSQL, ${n(total)} rows of one app, seeded in ${seedSeconds.toFixed(0)} s):`,
        );
        console.log(
          `  floor: one-row authenticated call x${RUNS}: median ${ms(floor.median)}, p95 ${ms(floor.p95)}  (the machine's noise, for scale)`,
        );
        console.log(
          `  request log, first page x${RUNS}:          median ${ms(firstPage.median)}, p95 ${ms(firstPage.p95)}  (< ${TARGET_READ_MS} ms: ${verdict(firstPage.p95, TARGET_READ_MS)})`,
        );
        console.log(
          `  request log, page ${n(DEEP_PAGE)} by cursor x${RUNS}: median ${ms(deepPage.median)}, p95 ${ms(deepPage.p95)}  (< ${TARGET_READ_MS} ms: ${verdict(deepPage.p95, TARGET_READ_MS)})`,
        );
        console.log(
          `  request log, page ${n(DEEP_PAGE)} by number:       median ${ms(deepOffset.median)}, p95 ${ms(deepOffset.p95)}  (offset, for comparison)`,
        );
        console.log(
          `  analytics x${RUNS}:                        median ${ms(analytics.median)}, p95 ${ms(analytics.p95)}  (< ${TARGET_READ_MS} ms: ${verdict(analytics.p95, TARGET_READ_MS)})`,
        );
        console.log(
          `  retention drop of ${dropped[0]}:        ${ms(dropMs)}  (< ${TARGET_DROP_MS} ms: ${verdict(dropMs, TARGET_DROP_MS)})`,
        );
        console.log(
          `  inserts of 100 rows, before the drop:   median ${ms(calm.median)}, max ${ms(calm.max)}; during it: ${duringCount} inserts, median ${ms(during.median)}, max ${ms(during.max)}`,
        );
      } finally {
        await server.close();
      }
    } finally {
      await runtime.close();
    }
  } finally {
    await benchDb.drop();
    rmSync(dataDir, { recursive: true, force: true });
    console.log(`bench database ${benchDb.name} dropped`);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

// `npx tsx scripts/analytics-bench.ts`: seeds one app with 1,000,000 request-log rows over the last 60 days (through
// services.requests.record, which also fills the daily roll-up), then times the real
// GET /v1/account/app_request_analytics/{appId} through app.inject. Issue target: under 50 ms.
// Embedded PGlite in a temporary folder by default; with DATABASE_URL, a bench database of its own is created on
// that server and dropped afterwards (nothing is written to the database DATABASE_URL names).
// BENCH_ROWS, BENCH_BATCH and BENCH_RUNS override the defaults.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../server/src/app';
import { loadConfig } from '../server/src/config';
import { accounts, apps } from '../server/src/db/schema';
import type { NewRequestLog } from '../server/src/modules/requests/requests.service';
import { createRuntime } from '../server/src/runtime';
import { createScratchDatabase } from '../server/test/support/scratch-database';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const BATCH = Number(process.env.BENCH_BATCH ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 50);
const WARM_UP = 5;
const SPREAD_MS = 60 * 86_400_000;
const TARGET_MS = 50;

const AGENTS = [
  'axios/1.7.9',
  'python-requests/2.32.3',
  'curl/8.5.0',
  'node-fetch/3.3.2',
  'Go-http-client/2.0',
];
const PATHS = ['/v1/rates', '/v1/rates?market=bank', '/v1/rates?base=naira&asset=dollar', '/v1/currencies'];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function time(runs: number, call: () => Promise<{ statusCode: number; body: string }>) {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = process.hrtime.bigint();
    const res = await call();
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
    if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}: ${res.body}`);
  }
  const sorted = [...samples].sort((a, b) => a - b);
  return { median: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted[sorted.length - 1]! };
}

const ms = (value: number) => `${value.toFixed(2)} ms`;

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'afrofx-analytics-bench-'));
  const benchDb = process.env.DATABASE_URL
    ? await createScratchDatabase(process.env.DATABASE_URL, 'afrofx_bench')
    : undefined;
  const where = benchDb ? `PostgreSQL server, database ${benchDb.name}` : `embedded PGlite in ${dataDir}`;
  console.log(
    `analytics bench: ${where}; ${ROWS.toLocaleString('en-US')} rows in batches of ${BATCH.toLocaleString('en-US')}`,
  );

  try {
    const config = loadConfig({
      NODE_ENV: 'development',
      DATA_DIR: dataDir,
      DATABASE_URL: benchDb?.url,
      DEMO_DATA: 'false',
      WEB_DIST: '',
      LOG_LEVEL: 'warn',
    });
    const runtime = await createRuntime(config);
    try {
      const db = runtime.database.db;
      const [account] = await db
        .insert(accounts)
        .values({
          email: 'analytics-bench@example.com',
          passwordHash: 'not-used',
          firstName: 'Bench',
          lastName: 'Mark',
          role: 'developer',
          isActivated: true,
        })
        .returning();
      const [app] = await db
        .insert(apps)
        .values({ accountId: account!.id, name: 'Analytics bench' })
        .returning();
      const appId = app!.id;

      const now = Date.now();
      const seedStarted = Date.now();
      for (let done = 0; done < ROWS;) {
        const size = Math.min(BATCH, ROWS - done);
        const entries: NewRequestLog[] = new Array(size);
        for (let i = 0; i < size; i++) {
          const n = done + i;
          entries[i] = {
            appId,
            host: 'api.afrofx.local',
            agent: AGENTS[n % AGENTS.length]!,
            ipAddress: `102.89.${(n >> 8) & 255}.${n & 255}`,
            originalUrl: PATHS[n % PATHS.length]!,
            status: n % 37 === 0 ? 429 : 200,
            latencyMs: 2 + (n % 180) / 10,
            // Spread evenly over the last 60 days, out of order (7919 is prime): the log is not written sorted.
            createdAt: new Date(now - Math.floor(((n * 7919) % ROWS) * (SPREAD_MS / ROWS))),
          };
        }
        await runtime.services.requests.record(entries);
        done += size;
        const seconds = (Date.now() - seedStarted) / 1000;
        if (done % (BATCH * 10) === 0 || done === ROWS) {
          console.log(
            `  seeded ${done.toLocaleString('en-US')} rows in ${seconds.toFixed(1)} s (${Math.round(done / seconds).toLocaleString('en-US')} rows/s)`,
          );
        }
      }
      const seedSeconds = (Date.now() - seedStarted) / 1000;

      const server = await buildApp(runtime);
      await server.ready();
      try {
        const token = server.issueToken({ sub: account!.id, role: 'developer', ver: account!.tokenVersion });
        const headers = { authorization: `Bearer ${token}` };
        const analytics = () =>
          server.inject({ method: 'GET', url: `/v1/account/app_request_analytics/${appId}`, headers });

        const first = await analytics();
        const { todayCount, weekCount, monthCount } = first.json().data;
        console.log(`  answer: todayCount ${todayCount}, weekCount ${weekCount}, monthCount ${monthCount}`);
        await time(WARM_UP, analytics);
        const result = await time(RUNS, analytics);

        // Not part of the target: the first page of the request log (a page plus the app's row count).
        const requestLog = await time(10, () =>
          server.inject({ method: 'GET', url: `/v1/account/app_request/${appId}?page=1`, headers }),
        );

        console.log(`\nresult (${runtime.database.driver}, ${where}):`);
        console.log(
          `  seeding:                    ${ROWS.toLocaleString('en-US')} rows in ${seedSeconds.toFixed(1)} s`,
        );
        console.log(
          `  app_request_analytics x${RUNS}: median ${ms(result.median)}, p95 ${ms(result.p95)}, max ${ms(result.max)}  (target < ${TARGET_MS} ms: ${result.p95 < TARGET_MS ? 'met' : 'NOT met'})`,
        );
        console.log(
          `  app_request page 1 x10:     median ${ms(requestLog.median)}, p95 ${ms(requestLog.p95)}`,
        );
      } finally {
        await server.close();
      }
    } finally {
      await runtime.close();
    }
  } finally {
    await benchDb?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

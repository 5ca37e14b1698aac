// `npm run bench:request-log-row`: what one request-log row costs to write, in isolation. The paid API's writer
// cuts a second of served answers into batches (slices of 200 rows embedded, where the database runs on the API's
// own thread) and writes each batch with its daily roll-up and batch id; this times exactly that call
// (requests.record) on batches of the same size, and gives the CPU and wall time per row. Embedded PGlite by
// default; BENCH_MODES=server (or embedded,server) writes to a bench database of its own on the PostgreSQL server
// of DATABASE_URL (or 127.0.0.1:5432), dropped afterwards. BENCH_ROWS and BENCH_SLICE override the defaults.
// Embedded, it then copies the same slices into a table of the same columns with no key, no index, no partition and
// no roll-up: what PGlite's engine takes for the row alone, the floor under any change to the writer's statements.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../server/src/config';
import { accounts, apps } from '../server/src/db/schema';
import { copyRows } from '../server/src/modules/requests/embedded-log-write';
import type { NewRequestLog } from '../server/src/modules/requests/requests.service';
import { createRuntime } from '../server/src/runtime';
import { createScratchDatabase } from '../server/test/support/scratch-database';

const ROWS = Number(process.env.BENCH_ROWS ?? 60_000);
const SLICE = Number(process.env.BENCH_SLICE ?? 200);
const WARM_ROWS = 4_000;

async function benchMode(mode: 'embedded' | 'server') {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'afrofx-request-log-row-'));
  const benchDb =
    mode === 'server'
      ? await createScratchDatabase(
          process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
          'afrofx_bench',
        )
      : undefined;
  try {
    const runtime = await createRuntime(
      loadConfig({
        NODE_ENV: 'development',
        DATA_DIR: dataDir,
        DATABASE_URL: benchDb?.url ?? '',
        REDIS_URL: '',
        DEMO_DATA: 'false',
        WEB_DIST: '',
        LOG_LEVEL: 'warn',
      }),
    );
    try {
      const { db } = runtime.database;
      const [account] = await db
        .insert(accounts)
        .values({
          email: 'row-bench@example.com',
          passwordHash: 'x',
          firstName: 'Row',
          lastName: 'Bench',
          role: 'developer',
          isActivated: true,
        })
        .returning();
      const [app] = await db.insert(apps).values({ accountId: account!.id, name: 'Row bench' }).returning();
      // What a served call logs: one app, host, agent and path; the status, latency and time of each answer.
      const slice = (): NewRequestLog[] => {
        const now = Date.now();
        return Array.from({ length: SLICE }, (_, i) => ({
          appId: app!.id,
          host: '127.0.0.1:8080',
          agent: 'autocannon/9.0.0',
          ipAddress: '127.0.0.1',
          originalUrl: '/v1/rates',
          status: 200,
          latencyMs: 0.05 + (i % 7) / 100,
          createdAt: new Date(now - (SLICE - i)),
        }));
      };
      const perRow = async (write: (entries: NewRequestLog[]) => Promise<unknown>) => {
        for (let written = 0; written < WARM_ROWS; written += SLICE) await write(slice());
        const cpuBefore = process.cpuUsage();
        const started = process.hrtime.bigint();
        for (let written = 0; written < ROWS; written += SLICE) await write(slice());
        const wallUs = Number(process.hrtime.bigint() - started) / 1e3;
        const cpu = process.cpuUsage(cpuBefore);
        const rows = Math.ceil(ROWS / SLICE) * SLICE;
        return `${rows.toLocaleString('en')} rows in slices of ${SLICE}: ${((cpu.user + cpu.system) / rows).toFixed(1)} µs CPU per row (this process), ${(wallUs / rows).toFixed(1)} µs wall per row; load average ${loadavg()[0]!.toFixed(2)}`;
      };
      console.log(`${mode}: ${await perRow((entries) => runtime.services.requests.record(entries))}`);
      const { pglite } = runtime.database;
      if (pglite) {
        // The row alone: the same columns, defaults and text, copied by one statement per slice.
        await pglite.exec('CREATE TABLE request_log_row_floor (LIKE request_logs INCLUDING DEFAULTS)');
        const copy = `COPY request_log_row_floor (app_id, host, agent, ip_address, original_url, status, latency_ms, count, created_at) FROM '/dev/blob'`;
        const floor = await perRow((entries) => pglite.exec(copy, { blob: new Blob([copyRows(entries)]) }));
        console.log(`${mode}, the row alone (no key, index, partition or roll-up): ${floor}`);
      }
    } finally {
      await runtime.close();
    }
  } finally {
    await benchDb?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const modes = (process.env.BENCH_MODES ?? 'embedded').split(',');
  console.log(`request-log row bench; load average before the start ${loadavg()[0]!.toFixed(2)}`);
  if (modes.includes('embedded')) await benchMode('embedded');
  if (modes.includes('server')) await benchMode('server');
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);

// `npm run bench:csv`: seeds 1,000,000 rates, then runs the rates-csv job as the worker does (real SMTP to a local
// sink that only counts bytes) and prints the worker's heap growth during the export. Issue target: under 100 MB.
// Embedded PGlite in a temporary folder by default; with DATABASE_URL, a bench database of its own is created on
// that server and dropped afterwards. BENCH_ROWS overrides the row count. Run with --expose-gc (the npm script
// does), so the figures start from a collected heap.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { loadConfig } from '../server/src/config';
import { ratesCsvJob } from '../server/src/jobs/rates-csv.job';
import { createRuntime } from '../server/src/runtime';
import { createScratchDatabase } from '../server/test/support/scratch-database';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const TARGET_MB = 100;
const SAMPLE_MS = 20;

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** An SMTP server that accepts every message and keeps only its size, so it adds nothing to the heap measured. */
async function startCountingSink() {
  const received: number[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      let bytes = 0;
      stream.on('data', (chunk: Buffer) => (bytes += chunk.length));
      stream.on('end', () => {
        received.push(bytes);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function collect() {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc (npm run bench:csv does)');
  gc();
  gc();
}

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'afrofx-csv-bench-'));
  const benchDb = process.env.DATABASE_URL
    ? await createScratchDatabase(process.env.DATABASE_URL, 'afrofx_bench')
    : undefined;
  const sink = await startCountingSink();
  const where = benchDb ? `PostgreSQL server, database ${benchDb.name}` : `embedded PGlite in ${dataDir}`;
  console.log(`csv export bench: ${where}; ${ROWS.toLocaleString('en-US')} rates`);

  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    DATABASE_URL: benchDb?.url,
    SMTP_URL: sink.url,
    ADMIN_EMAIL: 'admin@example.com',
    ADMIN_PASSWORD: 'afrofx-bench-admin',
    DEMO_DATA: 'false',
    WEB_DIST: '',
    LOG_LEVEL: 'warn',
  });
  const runtime = await createRuntime(config);
  try {
    const seeding = Date.now();
    await runtime.database.db.execute(sql`
      insert into rates (market, asset, base, buy, sell, created_at, updated_at)
      select (array['bank', 'black_market_cash', 'black_market_transfer'])[1 + g % 3]::market,
             (array['dollar', 'euro', 'british_pounds', 'canadian_dollar'])[1 + g % 4]::asset,
             (array['naira', 'kenyan-shilling', 'rand', 'cedis'])[1 + g % 4]::base,
             1000 + (g % 997) / 7.0, 1010 + (g % 991) / 3.0,
             now() - (${ROWS} - g) * interval '1 second', now()
      from generate_series(1, ${ROWS}) g`);
    console.log(`seeded in ${((Date.now() - seeding) / 1000).toFixed(1)} s`);

    const ctx = { config, services: runtime.services, mailer: runtime.mailer, log: runtime.log };
    collect();
    const before = process.memoryUsage();
    let peakHeap = before.heapUsed;
    let peakRss = before.rss;
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      peakHeap = Math.max(peakHeap, now.heapUsed);
      peakRss = Math.max(peakRss, now.rss);
    }, SAMPLE_MS);
    const started = Date.now();
    await ratesCsvJob(ctx, { email: 'bench@example.com' });
    clearInterval(sampler);
    const seconds = (Date.now() - started) / 1000;
    collect();
    const after = process.memoryUsage();

    console.log(`export mailed in ${seconds.toFixed(1)} s: one message of ${mb(sink.received[0] ?? 0)}`);
    console.log(`heap before ${mb(before.heapUsed)}, peak ${mb(peakHeap)}, after ${mb(after.heapUsed)}`);
    console.log(`rss before ${mb(before.rss)}, peak ${mb(peakRss)}`);
    const growth = peakHeap - before.heapUsed;
    console.log(
      `heap growth during the export: ${mb(growth)} (target < ${TARGET_MB} MB: ${growth < TARGET_MB * 1024 * 1024 ? 'met' : 'MISSED'})`,
    );
  } finally {
    await runtime.close();
    await sink.close();
    await benchDb?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});

// `npm run bench`: the paid GET /v1/rates (valid key, quota and request logging on) against its ceiling, a bare
// Fastify route sending the same bytes already serialised with the same content type, under the same autocannon
// load, alternating (bare, paid, bare, paid…). The paid server is the built product started as `npm start` starts
// it: its defaults (NODE_ENV, LOG_LEVEL and LOG_FORMAT unset, so info-level logs, written to a file as a service
// manager would), nothing set that production does not set, except a plan with a huge limit and the per-key burst
// guard raised (one bench client sends far more than a customer). Two modes in one run: embedded PGlite with
// in-process counting, and a PostgreSQL server + Redis when DATABASE_URL / REDIS_URL are set or answer on
// 127.0.0.1:5432 / 6379 (a bench database of its own is created there and dropped afterwards).
// BENCH_MODES=embedded or BENCH_MODES=server runs one of them; BENCH_PAID_NODE_OPTIONS passes options to the paid
// server's node (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile it under the load).
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { loadConfig } from '../server/src/config';
import { accounts, apiKeys, apps, subscriptions } from '../server/src/db/schema';
import { generateKeyPair } from '../server/src/modules/api-keys/api-key-material';
import { createRuntime } from '../server/src/runtime';
import { createScratchDatabase } from '../server/test/support/scratch-database';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const root = path.resolve(__dirname, '..');
/** Settings of the bench's own shell that would change how the product runs: the product's defaults apply. */
const NOT_PASSED_ON = [
  'NODE_ENV',
  'LOG_LEVEL',
  'LOG_FORMAT',
  'DEMO_DATA',
  'WEB_DIST',
  'API_BURST_PER_SECOND',
];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', timeout: 500 });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.on('connect', () => done(true));
    socket.on('error', () => done(false));
    socket.on('timeout', () => done(false));
  });
}

async function waitFor(url: string, headers: Record<string, string> = {}) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url, { headers });
      if (res.ok) return res;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer in time`);
}

function run(url: string, headers: Record<string, string>, duration: number) {
  return autocannon({ url, connections: CONNECTIONS, duration, headers, pipelining: 1 });
}

interface Summary {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
}

interface ModeResult {
  mode: string;
  bare: Summary;
  paid: Summary;
  logBytesPerRequest: number;
}

function summary(runs: autocannon.Result[]): Summary {
  const avg = (pick: (r: autocannon.Result) => number) => runs.reduce((s, r) => s + pick(r), 0) / runs.length;
  return {
    rps: avg((r) => r.requests.average),
    p50: avg((r) => r.latency.p50),
    p99: avg((r) => r.latency.p99),
    non2xx: runs.reduce((s, r) => s + r.non2xx, 0),
  };
}

async function benchMode(mode: string, serverDbUrl: string | undefined, redisUrl: string | undefined) {
  console.log(`\n${mode}`);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'afrofx-bench-'));
  const benchDb = serverDbUrl ? await createScratchDatabase(serverDbUrl, 'afrofx_bench') : undefined;
  const children: ChildProcess[] = [];
  const productEnv = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !NOT_PASSED_ON.includes(name)),
  );
  const env = {
    ...productEnv,
    DATA_DIR: dataDir,
    DATABASE_URL: benchDb?.url ?? '',
    REDIS_URL: redisUrl ?? '',
  };
  const logFile = path.join(dataDir, 'server.log');
  try {
    // Setup: demo rates, and an app whose plan will not run out during the bench.
    const runtime = await createRuntime(loadConfig({ ...env, DEMO_DATA: 'true', LOG_LEVEL: 'warn' }));
    const db = runtime.database.db;
    const [account] = await db
      .insert(accounts)
      .values({
        email: 'bench@example.com',
        passwordHash: 'x',
        firstName: 'Bench',
        lastName: 'Mark',
        role: 'developer',
        isActivated: true,
      })
      .returning();
    const [app] = await db.insert(apps).values({ accountId: account!.id, name: 'Bench' }).returning();
    const keys = generateKeyPair();
    await db.insert(apiKeys).values({
      appId: app!.id,
      publicKey: keys.publicKey,
      privateKeyHash: keys.privateKeyHash,
      privateKeyLast4: keys.privateKeyLast4,
    });
    const now = Date.now();
    await db.insert(subscriptions).values({
      appId: app!.id,
      planName: 'Bench',
      status: 'active',
      requestLimit: 1_000_000_000,
      startsAt: new Date(now - 86_400_000),
      expireAt: new Date(now + 300 * 86_400_000),
    });
    await runtime.close();

    const paidPort = await freePort();
    const barePort = await freePort();
    const log = openSync(logFile, 'a');
    const nodeOptions = (process.env.BENCH_PAID_NODE_OPTIONS ?? '').split(' ').filter(Boolean);
    const paid = spawn(process.execPath, [...nodeOptions, path.join(root, 'server/dist/main.cjs')], {
      env: { ...env, PORT: String(paidPort), API_BURST_PER_SECOND: '100000000' },
      stdio: ['ignore', log, 'inherit'],
    });
    closeSync(log);
    children.push(paid);
    const auth = { authorization: `Bearer ${keys.privateKey}` };
    const paidUrl = `http://127.0.0.1:${paidPort}/v1/rates`;
    const sample = await waitFor(paidUrl, auth);
    const bodyFile = path.join(dataDir, 'rates.json');
    writeFileSync(bodyFile, Buffer.from(await sample.arrayBuffer()));
    const bare = fork(path.join(root, 'scripts/bench-bare.mjs'), {
      env: {
        ...process.env,
        PORT: String(barePort),
        BENCH_BODY_FILE: bodyFile,
        BENCH_CONTENT_TYPE: sample.headers.get('content-type') ?? 'application/json; charset=utf-8',
      },
      stdio: 'inherit',
    });
    children.push(bare);
    const bareUrl = `http://127.0.0.1:${barePort}/v1/rates`;
    await waitFor(bareUrl);

    await run(bareUrl, {}, 2);
    await run(paidUrl, auth, 2);
    const logBefore = statSync(logFile).size;
    const results: Record<'bare' | 'paid', autocannon.Result[]> = { bare: [], paid: [] };
    for (let round = 1; round <= ROUNDS; round++) {
      for (const [name, url, headers] of [
        ['bare', bareUrl, {}],
        ['paid', paidUrl, auth],
      ] as const) {
        const result = await run(url, headers, DURATION_S);
        results[name].push(result);
        console.log(
          `  round ${round} ${name}: ${result.requests.average.toFixed(0).padStart(6)} req/s  p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms  non-2xx ${result.non2xx}  errors ${result.errors}`,
        );
      }
    }
    const paidRequests = results.paid.reduce((s, r) => s + r.requests.total, 0);
    return {
      mode,
      bare: summary(results.bare),
      paid: summary(results.paid),
      logBytesPerRequest: (statSync(logFile).size - logBefore) / Math.max(paidRequests, 1),
    };
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(
      children.map(
        (child) =>
          new Promise((resolve) => {
            if (child.exitCode !== null) resolve(undefined);
            child.once('exit', resolve);
            setTimeout(resolve, 10_000);
          }),
      ),
    );
    await benchDb?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const wanted = process.env.BENCH_MODES ?? 'embedded,server';
  const serverDbUrl =
    process.env.DATABASE_URL ||
    ((await answers(5432)) ? 'postgres://postgres@127.0.0.1:5432/postgres' : undefined);
  const redisUrl = process.env.REDIS_URL || ((await answers(6379)) ? 'redis://127.0.0.1:6379' : undefined);
  const [one, five, fifteen] = loadavg().map((n) => n.toFixed(2));
  console.log(
    `AfroFX bench: ${cpus().length} CPUs, load average ${one} ${five} ${fifteen} before the start (compare ratios within a run; a loaded machine moves both sides). ${CONNECTIONS} connections, ${DURATION_S} s per run, ${ROUNDS} rounds alternating bare and paid per mode.`,
  );
  const modes: ModeResult[] = [];
  if (wanted.includes('server')) {
    if (serverDbUrl && redisUrl) modes.push(await benchMode('PostgreSQL + Redis', serverDbUrl, redisUrl));
    else
      console.log('\nPostgreSQL + Redis: skipped (set DATABASE_URL and REDIS_URL, or run them on 127.0.0.1)');
  }
  if (wanted.includes('embedded')) modes.push(await benchMode('embedded (PGlite)', undefined, undefined));

  const ms = (n: number) => `${n.toFixed(1)} ms`;
  console.log(
    '\n| mode | bare req/s | bare p50 / p99 | paid req/s | paid p50 / p99 | paid/bare | p99 paid/bare |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const { mode, bare, paid } of modes) {
    console.log(
      `| ${mode} | ${bare.rps.toFixed(0)} | ${ms(bare.p50)} / ${ms(bare.p99)} | ${paid.rps.toFixed(0)} | ${ms(paid.p50)} / ${ms(paid.p99)} | **${(paid.rps / bare.rps).toFixed(2)}×** | **${(paid.p99 / bare.p99).toFixed(2)}×** |`,
    );
  }
  for (const { mode, paid, logBytesPerRequest } of modes) {
    console.log(`${mode}: the paid server wrote ${logBytesPerRequest.toFixed(1)} bytes of log per request`);
    if (paid.non2xx > 0)
      console.log(
        `warning (${mode}): the paid server refused requests during the run; the ratio does not measure the served path`,
      );
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);

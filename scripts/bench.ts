// `npm run bench`: the paid GET /v1/rates (valid key, quota and request logging on) against a bare Fastify route
// serving the same JSON from memory, under the same autocannon load, alternating. Embedded PGlite and in-process
// counting by default; a PostgreSQL server and Redis when DATABASE_URL / REDIS_URL are set (a bench database of
// its own is created there and dropped afterwards).
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { loadConfig } from '../server/src/config';
import { accounts, apiKeys, apps, subscriptions } from '../server/src/db/schema';
import { generateKeyPair } from '../server/src/modules/api-keys/api-key-material';
import { createRuntime } from '../server/src/runtime';
import { createScratchDatabase } from '../server/test/support/scratch-database';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const root = path.resolve(__dirname, '..');

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

async function waitFor(url: string, headers: Record<string, string> = {}) {
  const deadline = Date.now() + 60_000;
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

async function main() {
  const serverDbUrl = process.env.DATABASE_URL;
  const redisUrl = process.env.REDIS_URL;
  const mode = serverDbUrl
    ? `PostgreSQL server${redisUrl ? ' + Redis' : ' (no Redis)'}`
    : `embedded PGlite${redisUrl ? ' + Redis' : ', in-process counting'}`;
  console.log(
    `AfroFX bench: ${mode}; ${CONNECTIONS} connections, ${DURATION_S}s per run, ${ROUNDS} rounds alternating`,
  );

  const dataDir = mkdtempSync(path.join(tmpdir(), 'afrofx-bench-'));
  const benchDb = serverDbUrl ? await createScratchDatabase(serverDbUrl, 'afrofx_bench') : undefined;
  const databaseUrl = benchDb?.url;
  const children: ChildProcess[] = [];
  try {
    // Setup: demo rates, and an app whose plan will not run out during the bench.
    const env = {
      ...process.env,
      NODE_ENV: 'development',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      DEMO_DATA: 'true',
      LOG_LEVEL: 'warn',
    };
    const runtime = await createRuntime(loadConfig(env));
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
    // The per-key burst guard stays on the path but must not trip: one bench client sends far more than a customer.
    const paid = spawn(process.execPath, [path.join(root, 'server/dist/main.cjs')], {
      env: {
        ...env,
        PORT: String(paidPort),
        HOST: '127.0.0.1',
        DEMO_DATA: 'false',
        WEB_DIST: '',
        API_BURST_PER_SECOND: '100000000',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    children.push(paid);
    const auth = { authorization: `Bearer ${keys.privateKey}` };
    const paidUrl = `http://127.0.0.1:${paidPort}/v1/rates`;
    const sample = await (await waitFor(paidUrl, auth)).json();
    const bodyFile = path.join(dataDir, 'rates.json');
    writeFileSync(bodyFile, JSON.stringify(sample));
    const bare = fork(path.join(root, 'scripts/bench-bare.mjs'), {
      env: { ...process.env, PORT: String(barePort), BENCH_BODY_FILE: bodyFile },
      stdio: 'inherit',
    });
    children.push(bare);
    const bareUrl = `http://127.0.0.1:${barePort}/v1/rates`;
    await waitFor(bareUrl);

    await run(bareUrl, {}, 2);
    await run(paidUrl, auth, 2);
    const results: Record<'bare' | 'paid', autocannon.Result[]> = { bare: [], paid: [] };
    for (let round = 1; round <= ROUNDS; round++) {
      for (const [name, url, headers] of [
        ['bare', bareUrl, {}],
        ['paid', paidUrl, auth],
      ] as const) {
        const result = await run(url, headers, DURATION_S);
        results[name].push(result);
        console.log(
          `round ${round} ${name.padEnd(4)}: ${result.requests.average.toFixed(0).padStart(6)} req/s  p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms  non-2xx ${result.non2xx}  errors ${result.errors}`,
        );
      }
    }
    const summary = (name: 'bare' | 'paid') => {
      const runs = results[name];
      const avg = (pick: (r: autocannon.Result) => number) =>
        runs.reduce((s, r) => s + pick(r), 0) / runs.length;
      return {
        rps: avg((r) => r.requests.average),
        p50: avg((r) => r.latency.p50),
        p99: avg((r) => r.latency.p99),
        non2xx: runs.reduce((s, r) => s + r.non2xx, 0),
      };
    };
    const b = summary('bare');
    const p = summary('paid');
    console.log(
      `bare Fastify : ${b.rps.toFixed(0)} req/s, p50 ${b.p50.toFixed(2)} ms, p99 ${b.p99.toFixed(2)} ms`,
    );
    console.log(
      `paid /v1/rates: ${p.rps.toFixed(0)} req/s, p50 ${p.p50.toFixed(2)} ms, p99 ${p.p99.toFixed(2)} ms, non-2xx ${p.non2xx}`,
    );
    if (p.non2xx > 0)
      console.log(
        'warning: the paid server refused requests during the run; the ratio does not measure the served path',
      );
    console.log(`paid/bare throughput ratio: ${(p.rps / b.rps).toFixed(2)}`);
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 1500));
    await benchDb?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);

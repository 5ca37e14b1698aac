// `npm run bench`: the paid GET /v1/rates (valid key, quota and request logging on) against two bare Fastify routes,
// each in its own process, under the same autocannon load, alternating (bytes-only, contract, paid, bytes-only…),
// with two processes of each side, each taking its turn in every round:
// - bytes-only: the same bytes already serialised, with the same content type;
// - same contract: those bytes and every header the paid answer sends (RateLimit fields, ETag, Last-Modified, the
//   CORS pair, Cache-Control, nosniff, the content type). The contract without the metering: the ceiling the paid
//   path is held to.
// The headline is the server's CPU per answer (read from /proc/<pid>/stat of each server process): on a shared
// machine req/s and latency move with the neighbours' load, CPU per answer much less. Two processes of one build
// differ by several per cent: the spread between a side's two processes is printed as the run's noise floor, and a
// difference between sides inside it says nothing. The paid server is the built product started as `npm start` starts
// it: its defaults (NODE_ENV, LOG_LEVEL and LOG_FORMAT unset, so info-level logs, written to a file as a service
// manager would), nothing set that production does not set, except a plan with a huge limit and the per-key burst
// guard raised (one bench client sends far more than a customer). Two modes in one run: embedded PGlite with
// in-process counting, and a PostgreSQL server + Redis when DATABASE_URL / REDIS_URL are set or answer on
// 127.0.0.1:5432 / 6379 (a bench database of its own is created there and dropped afterwards).
// Each run also prints the CPU each answer cost the load generator (autocannon, in this process), the server and,
// when they run on this machine, PostgreSQL and Redis (from /proc, on Linux): on a machine of few cores they all
// share, the ratio is bounded by that sum, not by the server alone.
// It also gives the share of each run the server's main thread spent on a core and runnable but waiting for one
// (/proc/<pid>/task/<pid>/schedstat): the rest it waited for requests or for Redis and PostgreSQL, so a server whose
// thread is not busy is held back by a wait, not by its CPU.
// BENCH_MODES=embedded or BENCH_MODES=server runs one of them; BENCH_PAID_NODE_OPTIONS passes options to the paid
// server's node (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile it under the load), and
// BENCH_CONTRACT_NODE_OPTIONS the same-contract bare route's (to profile the ceiling beside it).
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, cpSync, mkdtempSync, openSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../server/src/config';
import { accounts, apiKeys, apps, subscriptions } from '../server/src/db/schema';
import { generateKeyPair } from '../server/src/modules/api-keys/api-key-material';
import { createRuntime } from '../server/src/runtime';
import { createScratchDatabase } from '../server/test/support/scratch-database';
import {
  answers,
  cpuOf,
  cpuSeconds,
  cpuSince,
  meanShare,
  freePort,
  processesNamed,
  run,
  SERVICES,
  summary,
  threadTimes,
  waitFor,
  type CpuShare,
  type Run,
  type Summary,
} from './bench-measure';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 6);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
/** Processes of each side; each runs once a round, so a side's runs are ROUNDS × PROCESSES. */
const PROCESSES = 2;
/** How long each server's CPU is read with no load. */
const IDLE_MS = 3_000;
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

const SIDES = ['bytes-only', 'contract', 'paid'] as const;
type Side = (typeof SIDES)[number];
const SIDE_NAMES: Record<Side, string> = {
  'bytes-only': 'bytes-only bare',
  contract: 'same-contract bare',
  paid: 'paid',
};

/** Headers of an answer that belong to the connection or the moment, not to the contract. */
const NOT_CONTRACT = ['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'];

/** Shares of a run's wall time: the server's main thread on a core, and runnable but waiting for one. */
interface ThreadShare {
  onCore: number;
  waiting: number;
}

interface ModeResult {
  mode: string;
  sides: Record<Side, Summary>;
  logBytesPerRequest: number;
  /** The machine's 1-minute load average after each round. */
  loads: number[];
  /** Each server's CPU with no load, µs per second (the mean of its processes). */
  idle: Record<Side, number>;
  /**
   * The share of each run's time the server's main thread spent on a core, and runnable but waiting for one (the
   * mean over a side's runs); the rest it waited for something to do: requests, or an answer from Redis or
   * PostgreSQL. Undefined where there is no /proc.
   */
  thread: Record<Side, ThreadShare | undefined>;
  /** Server CPU per answer of each process of a side, µs: how far apart two processes of one build are. */
  perProcess: Record<Side, number[]>;
}

/** How far apart the processes of a side measured, as a share of their mean. */
function spreadOf(values: number[]): number {
  const mean = values.reduce((s, v) => s + v, 0) / values.length;
  return (Math.max(...values) - Math.min(...values)) / mean;
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

    // Embedded, each paid process opens a copy of the set-up database (PGlite holds its folder alone); with servers
    // both are API processes of one deployment, sharing PostgreSQL and Redis.
    if (!benchDb)
      for (let i = 1; i < PROCESSES; i++)
        cpSync(path.join(dataDir, 'pglite'), path.join(dataDir, `paid-${i}`, 'pglite'), { recursive: true });
    const nodeOptions = (process.env.BENCH_PAID_NODE_OPTIONS ?? '').split(' ').filter(Boolean);
    const auth = { authorization: `Bearer ${keys.privateKey}` };
    const paidServer = async (i: number) => {
      const port = await freePort();
      const log = openSync(logFile, 'a');
      const child = spawn(process.execPath, [...nodeOptions, path.join(root, 'server/dist/main.cjs')], {
        env: {
          ...env,
          DATA_DIR: benchDb || i === 0 ? dataDir : path.join(dataDir, `paid-${i}`),
          PORT: String(port),
          API_BURST_PER_SECOND: '100000000',
        },
        stdio: ['ignore', log, 'inherit'],
      });
      closeSync(log);
      children.push(child);
      const url = `http://127.0.0.1:${port}/v1/rates`;
      return { child, url, sample: await waitFor(url, auth) };
    };
    const paid = [];
    for (let i = 0; i < PROCESSES; i++) paid.push(await paidServer(i));
    const sample = paid[0]!.sample;
    const bodyFile = path.join(dataDir, 'rates.json');
    writeFileSync(bodyFile, Buffer.from(await sample.arrayBuffer()));
    const contractHeaders = Object.fromEntries(
      [...sample.headers].filter(([name]) => !NOT_CONTRACT.includes(name) && name !== 'content-type'),
    );
    const bareServer = async (headers: Record<string, string> | undefined, nodeOptions: string[] = []) => {
      const port = await freePort();
      const child = fork(path.join(root, 'scripts/bench-bare.mjs'), {
        execArgv: [...process.execArgv, ...nodeOptions],
        env: {
          ...process.env,
          PORT: String(port),
          BENCH_BODY_FILE: bodyFile,
          BENCH_CONTENT_TYPE: sample.headers.get('content-type') ?? 'application/json; charset=utf-8',
          BENCH_HEADERS: headers ? JSON.stringify(headers) : '',
        },
        stdio: 'inherit',
      });
      children.push(child);
      const url = `http://127.0.0.1:${port}/v1/rates`;
      await waitFor(url);
      return { child, url };
    };
    const contractNodeOptions = (process.env.BENCH_CONTRACT_NODE_OPTIONS ?? '').split(' ').filter(Boolean);
    const bytesOnly = [];
    const contract = [];
    for (let i = 0; i < PROCESSES; i++) {
      bytesOnly.push(await bareServer(undefined));
      contract.push(await bareServer(contractHeaders, contractNodeOptions));
    }
    console.log(
      `  the contract: ${Object.keys(contractHeaders).length + 1} headers (${['content-type', ...Object.keys(contractHeaders)].join(', ')})`,
    );
    type Target = { url: string; headers: Record<string, string>; server: ChildProcess };
    const targets: Record<Side, Target[]> = {
      'bytes-only': bytesOnly.map(({ url, child }) => ({ url, headers: {}, server: child })),
      contract: contract.map(({ url, child }) => ({ url, headers: {}, server: child })),
      paid: paid.map(({ url, child }) => ({ url, headers: auth, server: child })),
    };
    const everyTarget = SIDES.flatMap((side) => targets[side].map((target) => ({ side, target })));

    for (const { target } of everyTarget) await run(target.url, target.headers, 2, CONNECTIONS);
    // What each server spends with no request at all (timers, the embedded job worker, flushes): part of every
    // answer's CPU share at a low rate, a fixed cost per second and not a cost per answer.
    const idleBefore = everyTarget.map(({ target }) => cpuSeconds(target.server.pid!));
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    const idleOf = everyTarget.map(({ target }, i) => {
      const now = cpuSeconds(target.server.pid!);
      const then = idleBefore[i];
      return now === undefined || then === undefined ? NaN : ((now - then) * 1e6) / (IDLE_MS / 1000);
    });
    const idle = Object.fromEntries(
      SIDES.map((side) => {
        const ofSide = idleOf.filter((_, i) => everyTarget[i]!.side === side);
        return [side, ofSide.reduce((s, v) => s + v, 0) / ofSide.length];
      }),
    ) as Record<Side, number>;
    console.log(
      `  idle CPU, µs per second: ${SIDES.map((side) => `${side} ${idle[side].toFixed(0)}`).join(', ')}`,
    );
    const logBefore = statSync(logFile).size;
    const results = Object.fromEntries(SIDES.map((side) => [side, [] as Run[]])) as Record<Side, Run[]>;
    const shares = Object.fromEntries(SIDES.map((side) => [side, []])) as unknown as Record<
      Side,
      Array<CpuShare | undefined>
    >;
    const perProcessShares = Object.fromEntries(
      SIDES.map((side) => [side, targets[side].map(() => [] as Array<CpuShare | undefined>)]),
    ) as Record<Side, Array<Array<CpuShare | undefined>>>;
    const threadShares = Object.fromEntries(SIDES.map((side) => [side, []])) as unknown as Record<
      Side,
      ThreadShare[]
    >;
    const loads: number[] = [];
    // PostgreSQL's and Redis's processes on this machine (none when they run elsewhere): their CPU is taken from
    // the same cores as the generator's and the server's.
    const servicesLocal = (benchDb || redisUrl) && processesNamed(SERVICES).length > 0;
    for (let round = 1; round <= ROUNDS; round++) {
      for (let instance = 0; instance < PROCESSES; instance++)
        for (const name of SIDES) {
          const { url, headers, server } = targets[name][instance]!;
          // Listed each run: a connection opened since has a backend of its own.
          const servicesBefore = cpuOf(servicesLocal ? processesNamed(SERVICES) : []);
          const before = { generator: process.cpuUsage(), server: cpuSeconds(server.pid!) };
          const threadBefore = threadTimes(server.pid!);
          const startedMs = performance.now();
          const measured = await run(url, headers, DURATION_S, CONNECTIONS);
          const wallMs = performance.now() - startedMs;
          const threadAfter = threadTimes(server.pid!);
          if (threadBefore && threadAfter)
            threadShares[name].push({
              onCore: (threadAfter.onCore - threadBefore.onCore) / wallMs,
              waiting: (threadAfter.waiting - threadBefore.waiting) / wallMs,
            });
          const { result, latency } = measured;
          const serverAfter = cpuSeconds(server.pid!);
          const generator = process.cpuUsage(before.generator);
          const perAnswer = (seconds: number) => (seconds * 1e6) / Math.max(result.requests.total, 1);
          const share =
            before.server === undefined || serverAfter === undefined
              ? undefined
              : {
                  generator: perAnswer((generator.user + generator.system) / 1e6),
                  server: perAnswer(serverAfter - before.server),
                  services: perAnswer(cpuSince(servicesBefore)),
                };
          results[name].push(measured);
          shares[name].push(share);
          perProcessShares[name][instance]!.push(share);
          const cpu = share
            ? `  CPU µs/answer: generator ${share.generator.toFixed(0)}, server ${share.server.toFixed(0)}${servicesLocal ? `, PostgreSQL + Redis ${share.services.toFixed(0)}` : ''}`
            : '';
          console.log(
            `  round ${round} ${name.padEnd(10)} ${instance + 1}: ${result.requests.average.toFixed(0).padStart(6)} req/s  p50 ${latency.p50.toFixed(2)} ms  p99 ${latency.p99.toFixed(2)} ms  non-2xx ${result.non2xx}  errors ${result.errors}${cpu}`,
          );
        }
      loads.push(loadavg()[0]!);
      console.log(`  load average after round ${round}: ${loads.at(-1)!.toFixed(2)}`);
    }
    const paidRequests = results.paid.reduce((s, r) => s + r.result.requests.total, 0);
    const perProcess = Object.fromEntries(
      SIDES.map((side) => [side, perProcessShares[side].map((shares) => meanShare(shares)?.server ?? NaN)]),
    ) as Record<Side, number[]>;
    console.log(
      `  server CPU per answer of each process (the spread between a side's processes is this run's noise floor): ${SIDES.map((side) => `${side} ${perProcess[side].map((v) => v.toFixed(0)).join(' / ')} µs (${(spreadOf(perProcess[side]) * 100).toFixed(0)} %)`).join(', ')}`,
    );
    return {
      perProcess,
      mode,
      sides: Object.fromEntries(SIDES.map((side) => [side, summary(results[side], shares[side])])) as Record<
        Side,
        Summary
      >,
      logBytesPerRequest: (statSync(logFile).size - logBefore) / Math.max(paidRequests, 1),
      loads,
      idle,
      thread: Object.fromEntries(
        SIDES.map((side) => {
          const runs = threadShares[side];
          const mean = (pick: (r: ThreadShare) => number) =>
            runs.reduce((sum, r) => sum + pick(r), 0) / runs.length;
          return [
            side,
            runs.length ? { onCore: mean((r) => r.onCore), waiting: mean((r) => r.waiting) } : undefined,
          ];
        }),
      ) as ModeResult['thread'],
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
    `AfroFX bench: ${cpus().length} CPUs, load average ${one} ${five} ${fifteen} before the start (compare ratios within a run; a loaded machine moves both sides). ${CONNECTIONS} connections, ${DURATION_S} s per run, ${ROUNDS} rounds per mode, each running bytes-only bare, same-contract bare and paid on each of ${PROCESSES} processes per side.`,
  );
  const modes: ModeResult[] = [];
  if (wanted.includes('server')) {
    if (serverDbUrl && redisUrl) modes.push(await benchMode('PostgreSQL + Redis', serverDbUrl, redisUrl));
    else
      console.log('\nPostgreSQL + Redis: skipped (set DATABASE_URL and REDIS_URL, or run them on 127.0.0.1)');
  }
  if (wanted.includes('embedded')) modes.push(await benchMode('embedded (PGlite)', undefined, undefined));

  const us = (ms: number) => `${(ms * 1000).toFixed(0)} µs`;
  const ratio = (n: number) => `**${n.toFixed(2)}×**`;
  const cpuOfSide = (side: Summary) => (side.cpu ? `${side.cpu.server.toFixed(0)} µs` : '–');
  console.log(
    '\nServer CPU per answer is the headline; ratios are paid against the same-contract bare route (targets: PostgreSQL + Redis ≥ 0.85× req/s, ≤ 1.5× p99, ≤ 1.25× CPU; embedded ≥ 0.7×, ≤ 3×, ≤ 1.6×).',
  );
  console.log(
    '\n| mode | bytes-only bare | same-contract bare | paid | paid / contract req/s | p99 | server CPU per answer | paid beyond the contract | spread between processes (contract, paid) | paid server idle | load |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const { mode, sides, loads, idle, perProcess } of modes) {
    const cell = (side: Summary) =>
      `${side.rps.toFixed(0)} req/s, p50 ${us(side.p50)}, p99 ${us(side.p99)}, CPU ${cpuOfSide(side)}`;
    const { contract, paid } = sides;
    const cpuRatio = contract.cpu && paid.cpu ? ratio(paid.cpu.server / contract.cpu.server) : '–';
    // What metering adds in microseconds moves less with the machine than the ratio does: the contract route's own
    // cost (mostly the kernel's and Node's HTTP work) changes with the host's load from one run to the next.
    const beyond =
      contract.cpu && paid.cpu ? `${(paid.cpu.server - contract.cpu.server).toFixed(0)} µs` : '–';
    console.log(
      `| ${mode} | ${cell(sides['bytes-only'])} | ${cell(contract)} | ${cell(paid)} | ${ratio(paid.rps / contract.rps)} | ${ratio(paid.p99 / contract.p99)} | ${cpuRatio} | ${beyond} | ${(spreadOf(perProcess.contract) * 100).toFixed(0)} %, ${(spreadOf(perProcess.paid) * 100).toFixed(0)} % | ${idle.paid.toFixed(0)} µs/s | ${loads.map((l) => l.toFixed(1)).join(' ')} |`,
    );
  }
  if (modes.some((m) => m.sides.paid.cpu)) {
    // The generator, the servers and the databases share this machine's cores: what the paid answer costs beyond
    // the contract (its own work, and the databases') comes out of the same cores.
    console.log(
      `\nCPU per answer (µs; ${cpus().length} cores give ${(cpus().length * 1e6).toLocaleString('en')} µs a second):`,
    );
    console.log(
      '\n| mode | run | generator (autocannon) | server | PostgreSQL + Redis | all | cores busy at the measured rate | server main thread: on a core, waiting for one |',
    );
    console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
    for (const { mode, sides, thread } of modes)
      for (const name of SIDES) {
        const side = sides[name];
        const main = thread[name];
        const percent = (share: number) => `${(share * 100).toFixed(0)} %`;
        if (!side.cpu) continue;
        const all = side.cpu.generator + side.cpu.server + side.cpu.services;
        console.log(
          `| ${mode} | ${SIDE_NAMES[name]} | ${side.cpu.generator.toFixed(0)} | ${side.cpu.server.toFixed(0)} | ${side.cpu.services.toFixed(0)} | ${all.toFixed(0)} | ${((all * side.rps) / 1e6).toFixed(2)} | ${main ? `${percent(main.onCore)}, ${percent(main.waiting)}` : '–'} |`,
        );
      }
  }
  for (const { mode, sides, logBytesPerRequest } of modes) {
    const { paid } = sides;
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

// `npm run test:faults`: pulls the plugs the README promises to survive, on real servers of the
// harness's own: PostgreSQL (Debian's initdb/pg_ctl), redis-server, an SMTP sink, two API processes and a worker.
// Under paid-API load it restarts PostgreSQL, stops Redis, flushes Redis, kills the worker with -9 mid-mailing,
// stops SMTP mid-mailing and sends SIGTERM to an API process. After each fault: every 2xx the client saw is in the
// request log exactly once, no app was served past its quota, every mail reached its recipient exactly once, and
// the processes came back by themselves. Prints a table; exits 1 when any of those figures is off.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { OFFLINE_OFFICIAL_SOURCES } from '../built-server.mjs';
import { startSmtpSink } from '../../server/test/support/smtp-sink';
import { writeFixtures } from './fixtures';
import { printTable, statusSummary } from './report';
import { isServed, startLoad, type Load, type RequestOutcome } from './load';
import {
  freePort,
  healthy,
  logTail,
  sleep,
  startNodeProcess,
  waitUntil,
  type NodeProcess,
} from './processes';
import { createRedisServer, findPostgresBin, onPath, startPostgresCluster } from './servers';
import {
  FLUSH_MS,
  LOAD,
  SMALL_PLAN_LIMIT,
  SUBSCRIBERS,
  BEFORE_FAULT_MS,
  AFTER_RECOVERY_MS,
  SETTLE_MS,
  COUNT_SETTLE_MS,
  RECOVERY_LIMIT_MS,
  MAILING_LIMIT_MS,
  type Harness,
  type FaultRun,
  type Fault,
  type FaultResult,
  seconds,
} from './harness';
import { FAULTS, chosenFaults } from './faults';
const root = path.resolve(__dirname, '../..');

// ---- Checks --------------------------------------------------------------------------------------------------

interface LoggedAgent {
  rows: number;
  served: boolean;
}

/**
 * An app's durable quota count less its served (2xx) requests in the log. Every served request is counted once
 * (refunds give back the rest), so a fault must not move it: up is requests counted twice (a customer loses them),
 * down is requests not counted (served past the plan).
 */
async function countDrift(db: pg.Pool, appId: string): Promise<number> {
  const { rows } = await db.query<{ drift: number }>(
    `SELECT (SELECT sum(processed_requests) FROM subscriptions WHERE app_id = $1)::int
          - (SELECT count(*) FROM request_logs WHERE app_id = $1 AND status BETWEEN 200 AND 299)::int AS drift`,
    [appId],
  );
  return rows[0]!.drift;
}

async function loggedAgents(db: pg.Pool, prefix: string): Promise<Map<string, LoggedAgent>> {
  const { rows } = await db.query<{ agent: string; rows: number; served: boolean }>(
    `SELECT agent, count(*)::int AS rows, bool_or(status BETWEEN 200 AND 299) AS served
     FROM request_logs WHERE starts_with(agent, $1) GROUP BY agent`,
    [prefix],
  );
  return new Map(rows.map((r) => [r.agent, { rows: r.rows, served: r.served }]));
}

/** Waits until every API process has answered health 200 and a paid 2xx after `endedAt`. */
async function measureRecovery(h: Harness, load: Load, endedAt: number): Promise<Array<number | undefined>> {
  return Promise.all(
    h.apiUrls.map(async (url, api) => {
      let healthyAt: number | undefined;
      await waitUntil(
        async () => {
          if (healthyAt === undefined && (await healthy(url))) healthyAt = Date.now();
          return healthyAt !== undefined && load.firstSuccess(api, endedAt) !== undefined;
        },
        RECOVERY_LIMIT_MS - (Date.now() - endedAt),
      );
      const served = load.firstSuccess(api, endedAt);
      if (healthyAt === undefined || served === undefined) return undefined;
      return Math.max(healthyAt, served) - endedAt;
    }),
  );
}

/** A process that died during a fault is a failure; it is started again so that the next faults still run. */
async function reviveTheDead(h: Harness, problems: string[]) {
  for (const [index, api] of h.apis.entries()) {
    if (api.running) continue;
    problems.push(
      `API ${index + 1} died (exit ${await api.exited}); started again for the next fault\n${api.tail()}`,
    );
    h.apis[index] = h.startApi(index);
    if (!(await h.waitHealthy(index)))
      throw new Error(`API ${index + 1} does not start again\n${h.apis[index]!.tail()}`);
  }
  if (!h.worker.running) {
    problems.push(
      `the worker died (exit ${await h.worker.exited}); started again for the next fault\n${h.worker.tail()}`,
    );
    h.worker = h.startWorker();
  }
}

async function runFault(h: Harness, fault: Fault): Promise<FaultResult> {
  const prefix = `afrofx-faults ${fault.id} `;
  const smallPlan = h.fixtures.smallPlan.get(fault.id)!;
  const unlimitedApp = h.fixtures.unlimited.appId;
  const driftBefore = await countDrift(h.db, unlimitedApp);
  const load = startLoad({
    ...LOAD,
    agentPrefix: prefix,
    apiUrls: h.apiUrls,
    keys: { unlimited: h.fixtures.unlimited.privateKey, smallPlan: smallPlan.privateKey },
  });
  const run: FaultRun = { ended: () => undefined, notes: [], problems: [] };
  let outcomes: RequestOutcome[];
  let recoveryMs: Array<number | undefined> = [];
  try {
    await sleep(BEFORE_FAULT_MS);
    let recovery: Promise<Array<number | undefined>> | undefined;
    run.ended = () => {
      recovery ??= measureRecovery(h, load, Date.now());
    };
    try {
      await fault.inject(h, run);
    } catch (err) {
      run.problems.push(
        `the fault could not be carried out: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    run.ended();
    recoveryMs = await recovery!;
    await sleep(AFTER_RECOVERY_MS);
  } finally {
    outcomes = await load.stop();
  }
  await sleep(SETTLE_MS);
  await reviveTheDead(h, run.problems);

  const logged = await loggedAgents(h.db, prefix);
  const served = outcomes.filter((o) => isServed(o.status));
  const lost = served.filter((o) => !logged.has(o.agent)).length;
  const loggedTwice = served.reduce((sum, o) => sum + Math.max((logged.get(o.agent)?.rows ?? 0) - 1, 0), 0);
  // What the small plan served: what the client saw, or what the log says was answered 2xx if that is more
  // (a 2xx whose client had given up still counts against the plan).
  const smallServedSeen = served.filter((o) => o.app === 'smallPlan').length;
  const smallAgents = new Set(outcomes.filter((o) => o.app === 'smallPlan').map((o) => o.agent));
  const smallServedLogged = [...logged].filter(([agent, l]) => l.served && smallAgents.has(agent)).length;
  const overQuota = Math.max(Math.max(smallServedSeen, smallServedLogged) - smallPlan.requestLimit, 0);

  // The durable count reaches PostgreSQL on the API's flush; a count off for good stays off (NaN: never read).
  let miscounted = NaN;
  await waitUntil(
    async () => (miscounted = (await countDrift(h.db, unlimitedApp)) - driftBefore) === 0,
    COUNT_SETTLE_MS,
  );

  const problems = run.problems;
  const refusedOrFailed = outcomes.length - served.length;
  run.notes.unshift(`${outcomes.length} requests, ${refusedOrFailed} not 2xx (${statusSummary(outcomes)})`);
  if (lost > 0 || loggedTwice > 0 || overQuota > 0 || miscounted !== 0)
    problems.push(
      `request log or quota off: ${lost} lost, ${loggedTwice} logged twice, ${overQuota} over quota, ` +
        `quota count off by ${miscounted}\n` +
        h.apis.map((api) => api.tail()).join('\n'),
    );
  recoveryMs.forEach((ms, api) => {
    if (ms === undefined)
      problems.push(
        `API ${api + 1} did not answer health 200 and a paid 2xx within ${seconds(RECOVERY_LIMIT_MS)}\n${h.apis[api]!.tail()}`,
      );
  });
  const mailing = run.mailing;
  if (mailing && (mailing.delivered !== mailing.expected || mailing.duplicates > 0))
    problems.push(
      `mailing: ${mailing.delivered}/${mailing.expected} delivered, ${mailing.duplicates} duplicates` +
        `${mailing.doneAfterMs === undefined ? `, not completed within ${seconds(MAILING_LIMIT_MS)}` : ''}\n` +
        [h.worker, ...h.apis].map((p) => p.tail()).join('\n'),
    );
  return {
    fault,
    served: served.length,
    logged: served.length - lost,
    lost,
    loggedTwice,
    overQuota,
    miscounted,
    mailing,
    recoveryMs,
    notes: run.notes,
    problems,
  };
}

// ---- Setup and teardown --------------------------------------------------------------------------------------

async function skipReason(): Promise<string | undefined> {
  if (!findPostgresBin()) return 'no PostgreSQL binaries (initdb, pg_ctl) under /usr/lib/postgresql/*/bin';
  if (!(await onPath('redis-server')) || !(await onPath('redis-cli')))
    return 'redis-server or redis-cli not found';
  if (process.getuid?.() === 0 && !(await onPath('runuser')))
    return 'running as root without runuser (initdb must run as the postgres user)';
  return undefined;
}

async function adminToken(apiUrl: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${apiUrl}/v1/admin/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`admin sign-in answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { data: { token: string } }).data.token;
}

async function main(): Promise<number> {
  const skip = await skipReason();
  if (skip) {
    console.log(`test:faults skipped: ${skip}.`);
    return 0;
  }
  for (const entry of ['main.cjs', 'worker.cjs']) {
    if (!existsSync(path.join(root, 'server/dist', entry)))
      throw new Error(`server/dist/${entry} is missing: run npm run build -w server`);
  }
  const started = Date.now();
  const tmp = mkdtempSync(path.join(tmpdir(), 'afrofx-faults-'));
  // The postgres system user runs the cluster below this folder.
  chmodSync(tmp, 0o755);
  const stops: Array<() => Promise<unknown>> = [];
  let cleanUp: Promise<void> | undefined;
  let failed = true;
  const stopAll = () =>
    (cleanUp ??= (async () => {
      for (const stop of stops.reverse()) await stop().catch((err: unknown) => console.error(err));
      rmSync(path.join(tmp, 'pg', 'data'), { recursive: true, force: true });
      if (failed) console.log(`logs kept in ${tmp}`);
      else rmSync(tmp, { recursive: true, force: true });
    })());
  // Ctrl-C reaches this process twice (from the terminal and relayed by tsx): every signal waits for the one
  // clean-up, so that a second one cannot end the process before the servers are stopped.
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    process.on(signal, () => void stopAll().finally(() => process.exit(code)));
  }

  try {
    console.log(`AfroFX fault run: logs in ${tmp}`);
    const postgres = await startPostgresCluster(findPostgresBin()!, path.join(tmp, 'pg'));
    stops.push(() => postgres.stop());
    const redis = await createRedisServer(path.join(tmp, 'redis'));
    stops.push(() => redis.stop());
    await redis.start();
    const smtp = await startSmtpSink();
    stops.push(() => smtp.close());

    const apiPorts = [await freePort(), await freePort()];
    const apiUrls = apiPorts.map((port) => `http://127.0.0.1:${port}`);
    const admin = { email: 'admin@faults.example', password: randomBytes(18).toString('base64url') };
    const env = {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      DATABASE_URL: postgres.url,
      REDIS_URL: redis.url,
      SMTP_URL: smtp.url,
      PUBLIC_URL: apiUrls[0],
      WEB_DIST: '',
      DEMO_DATA: 'false',
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      JWT_SECRET: randomBytes(32).toString('hex'),
      REQUEST_LOG_FLUSH_MS: String(FLUSH_MS),
      API_BURST_PER_SECOND: '10000',
      LOG_LEVEL: 'warn',
      // The hanging-receiver fault registers a receiver on this machine.
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      ...OFFLINE_OFFICIAL_SOURCES,
    };
    const spawned = new Set<NodeProcess>();
    stops.push(() => Promise.all([...spawned].map((p) => p.stop(5000))));
    const spawn = (name: string, entry: string, extra: Record<string, string>) => {
      const dataDir = path.join(tmp, name);
      mkdirSync(dataDir, { recursive: true });
      const child = startNodeProcess(
        name,
        path.join(root, 'server/dist', entry),
        { ...env, ...extra, DATA_DIR: dataDir },
        path.join(tmp, `${name}.log`),
      );
      spawned.add(child);
      return child;
    };
    const startApi = (index: number) =>
      spawn(`api-${index + 1}`, 'main.cjs', { PORT: String(apiPorts[index]), PUBLIC_URL: apiUrls[index]! });
    const startWorker = () => spawn('worker', 'worker.cjs', {});
    const waitHealthy = (index: number) => waitUntil(() => healthy(apiUrls[index]!), 60_000);
    const apis: NodeProcess[] = [];
    const startOrExit = async (index: number) => {
      apis[index] = startApi(index);
      if (!(await waitHealthy(index)))
        throw new Error(`API ${index + 1} did not answer GET /v1/health with 200\n${apis[index]!.tail()}`);
    };

    // The first API process migrates the database; the others start on a migrated one.
    await startOrExit(0);
    const worker = startWorker();
    await startOrExit(1);

    const db = new pg.Pool({ connectionString: postgres.url, max: 2 });
    // The PostgreSQL restart drops the harness's idle connections too; the pool replaces them.
    db.on('error', () => undefined);
    stops.push(() => db.end());
    const fixtures = await writeFixtures(
      db,
      FAULTS.map((f) => f.id),
      FAULTS.filter((f) => f.mails).map((f) => f.id),
      { smallLimit: SMALL_PLAN_LIMIT, subscribers: SUBSCRIBERS },
    );
    const h: Harness = {
      postgres,
      redis,
      smtp,
      db,
      apiUrls,
      apis,
      worker,
      startApi,
      startWorker,
      waitHealthy,
      fixtures,
      adminToken: await adminToken(apiUrls[0]!, admin.email, admin.password),
    };
    console.log(
      `ready in ${seconds(Date.now() - started)}: PostgreSQL ${postgres.url}, ${redis.url}, ${smtp.url}, ` +
        `APIs ${apiUrls.join(' ')}; load ${LOAD.ratePerSecond}/s, ${LOAD.concurrency} in flight`,
    );

    const results: FaultResult[] = [];
    for (const fault of chosenFaults()) {
      const faultStarted = Date.now();
      const result = await runFault(h, fault);
      results.push(result);
      console.log(
        `${result.problems.length ? 'FAIL' : 'ok  '} ${fault.title} (${seconds(Date.now() - faultStarted)}): ` +
          `${result.served} served, ${result.lost} lost, ${result.overQuota} over quota; ${result.notes.join('; ')}`,
      );
      for (const problem of result.problems) console.log(`  ${problem}`);
    }

    console.log();
    printTable(results);
    const failures = results.filter((r) => r.problems.length > 0);
    console.log(
      `\n${failures.length === 0 ? 'All faults survived' : `${failures.length} of ${results.length} faults not survived`}` +
        ` (${seconds(Date.now() - started)})`,
    );
    if (failures.length > 0) console.log(`PostgreSQL log:\n${logTail(postgres.logFile, 10)}`);
    failed = failures.length > 0;
    return failed ? 1 : 0;
  } finally {
    await stopAll();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);

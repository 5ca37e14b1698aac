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
import { startSmtpSink, type SmtpSink } from '../../server/test/support/smtp-sink';
import { ACTIVATION_MAIL_LIMIT_MS, hangingReceiver, TEST_EVENTS } from './hanging-receiver';
import { activateMailingList, mailingDomain, writeFixtures, type Fixtures } from './fixtures';
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
import {
  createRedisServer,
  findPostgresBin,
  onPath,
  startPostgresCluster,
  type PostgresCluster,
  type RedisServer,
} from './servers';

const root = path.resolve(__dirname, '../..');

const FLUSH_MS = 500;
const LOAD = { concurrency: 24, ratePerSecond: 400, maxRequests: 100_000, timeoutMs: 5000 };
const SMALL_PLAN_LIMIT = 300;
const SUBSCRIBERS = 1000;
/** Load before each fault: long enough for the small plan to run out and its count to be flushed. */
const BEFORE_FAULT_MS = 3000;
/** Load after every process has recovered. */
const AFTER_RECOVERY_MS = 2000;
/** One flush of every process, with slack, before the request log is read. */
const SETTLE_MS = 2 * FLUSH_MS + 1500;
/** How long the durable quota count may take to match what was served, once the load has stopped. */
const COUNT_SETTLE_MS = 10_000;
const RECOVERY_LIMIT_MS = 20_000;
/** A restart long enough for a request-log flush or two to meet no server (a flush every FLUSH_MS). */
const POSTGRES_DOWN_MS = 2000;
const REDIS_DOWN_MS = 10_000;
const SMTP_DOWN_MS = 30_000;
/** A mailing interrupted by a killed worker waits for its BullMQ lock to lapse and a retry. */
const MAILING_LIMIT_MS = 60_000;
/** How long the interrupted part of a mailing may take to reach the sink. */
const MAILING_START_LIMIT_MS = 30_000;

interface Harness {
  postgres: PostgresCluster;
  redis: RedisServer;
  smtp: SmtpSink;
  db: pg.Pool;
  apiUrls: string[];
  apis: NodeProcess[];
  worker: NodeProcess;
  startApi(index: number): NodeProcess;
  startWorker(): NodeProcess;
  /** Resolves false when the API process did not answer health 200 within a minute. */
  waitHealthy(index: number): Promise<boolean>;
  fixtures: Fixtures;
  adminToken: string;
}

interface MailingOutcome {
  delivered: number;
  expected: number;
  duplicates: number;
  /** Of the duplicates, those that repeat a message already delivered (same Message-ID): resends, not new mails. */
  resent: number;
  /** From the fault's end to the mailing's completion, when it completed. */
  doneAfterMs: number | undefined;
}

interface FaultRun {
  /** Call when the fault is over (the server is back): recovery is measured from here. */
  ended(): void;
  notes: string[];
  problems: string[];
  mailing?: MailingOutcome;
}

interface Fault {
  id: string;
  title: string;
  /** Sends a rates mailing (to a list of its own). */
  mails?: boolean;
  inject(h: Harness, run: FaultRun): Promise<void>;
}

interface FaultResult {
  fault: Fault;
  served: number;
  logged: number;
  lost: number;
  loggedTwice: number;
  overQuota: number;
  /** The unlimited app's quota count less what it served, moved by the fault: above 0 counted twice, below not. */
  miscounted: number;
  mailing?: MailingOutcome;
  /** Per API process: from the fault's end to its first 2xx and health 200, undefined if it never came. */
  recoveryMs: Array<number | undefined>;
  notes: string[];
  problems: string[];
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

// ---- Mailings ------------------------------------------------------------------------------------------------

interface Mailing {
  id: string;
  /** The domain of this mailing's list: what reached the sink for it, whenever it came. */
  domain: string;
}

async function startMailing(h: Harness, faultId: string, run: FaultRun): Promise<Mailing> {
  await activateMailingList(h.db, faultId);
  const res = await fetch(`${h.apiUrls[0]}/v1/admin/send_rate_to_mail`, {
    method: 'POST',
    headers: { authorization: `Bearer ${h.adminToken}` },
    signal: AbortSignal.timeout(10_000),
  });
  if (res.status !== 202) throw new Error(`send_rate_to_mail answered ${res.status}: ${await res.text()}`);
  const { recipients } = ((await res.json()) as { data: { recipients: number } }).data;
  if (recipients !== h.fixtures.subscribers)
    run.problems.push(`send_rate_to_mail announced ${recipients} recipients, not ${h.fixtures.subscribers}`);
  const { rows } = await h.db.query<{ id: string }>(
    'SELECT id FROM rate_mailings ORDER BY created_at DESC LIMIT 1',
  );
  return { id: rows[0]!.id, domain: mailingDomain(faultId) };
}

const deliveriesOf = (h: Harness, mailing: Mailing) =>
  h.smtp.delivered.flatMap((mail) =>
    mail.to
      .map((recipient) => recipient.toLowerCase())
      .filter((recipient) => recipient.endsWith(`@${mailing.domain}`))
      .map((recipient) => ({ recipient, messageId: mail.messageId })),
  );

/** Waits for the mailing to complete (or the limit), then counts what reached the sink for it. */
async function finishMailing(h: Harness, mailing: Mailing, endedAt: number): Promise<MailingOutcome> {
  const completed = await waitUntil(
    async () => {
      const { rows } = await h.db.query<{ done: boolean }>(
        'SELECT completed_at IS NOT NULL AS done FROM rate_mailings WHERE id = $1',
        [mailing.id],
      );
      return rows[0]?.done === true;
    },
    Math.max(MAILING_LIMIT_MS - (Date.now() - endedAt), 0),
    250,
  );
  const doneAfterMs = completed ? Date.now() - endedAt : undefined;
  // A late duplicate would arrive right after the last recorded recipient.
  await sleep(1500);
  const deliveries = deliveriesOf(h, mailing);
  const distinct = new Set(deliveries.map((d) => d.recipient)).size;
  const distinctMessages = new Set(deliveries.map((d) => `${d.recipient} ${d.messageId}`)).size;
  return {
    delivered: distinct,
    expected: h.fixtures.subscribers,
    duplicates: deliveries.length - distinct,
    resent: deliveries.length - distinctMessages,
    doneAfterMs,
  };
}

/** Starts a mailing, applies `interrupt` once `fraction` of it has reached the sink, and waits for the rest. */
async function interruptMailing(
  h: Harness,
  faultId: string,
  run: FaultRun,
  fraction: number,
  interrupt: () => Promise<void>,
) {
  const started = Date.now();
  const mailing = await startMailing(h, faultId, run);
  const target = Math.round(h.fixtures.subscribers * fraction);
  if (!(await waitUntil(async () => deliveriesOf(h, mailing).length >= target, MAILING_START_LIMIT_MS, 50)))
    run.problems.push(
      `the mailing did not reach ${target} recipients within ${seconds(MAILING_START_LIMIT_MS)}`,
    );
  run.notes.push(
    `interrupted after ${deliveriesOf(h, mailing).length} mails in ${seconds(Date.now() - started)}`,
  );
  await interrupt();
  const endedAt = Date.now();
  run.ended();
  run.mailing = await finishMailing(h, mailing, endedAt);
}

// ---- The faults ----------------------------------------------------------------------------------------------

const FAULTS: Fault[] = [
  {
    id: 'postgres-restart',
    title: `PostgreSQL restart (down ${POSTGRES_DOWN_MS / 1000} s)`,
    async inject(h, run) {
      await h.postgres.restart(POSTGRES_DOWN_MS);
      run.ended();
    },
  },
  {
    id: 'redis-stop',
    title: `Redis stopped ${REDIS_DOWN_MS / 1000} s`,
    async inject(h, run) {
      await h.redis.stop();
      await sleep(REDIS_DOWN_MS);
      await h.redis.start();
      run.ended();
    },
  },
  {
    id: 'redis-flush',
    title: 'Redis FLUSHALL',
    async inject(h, run) {
      const answer = await h.redis.command('FLUSHALL');
      if (answer !== 'OK') run.problems.push(`FLUSHALL answered ${answer}`);
      run.ended();
    },
  },
  {
    id: 'worker-kill',
    title: 'worker kill -9 mid-mailing',
    mails: true,
    async inject(h, run) {
      await interruptMailing(h, this.id, run, 0.5, async () => {
        h.worker.child.kill('SIGKILL');
        await h.worker.exited;
        h.worker = h.startWorker();
      });
    },
  },
  {
    id: 'smtp-outage',
    title: `SMTP down ${SMTP_DOWN_MS / 1000} s mid-mailing`,
    mails: true,
    async inject(h, run) {
      await interruptMailing(h, this.id, run, 0.3, async () => {
        await h.smtp.stop();
        await sleep(SMTP_DOWN_MS);
        await h.smtp.start();
      });
    },
  },
  {
    id: 'api-sigterm',
    title: 'SIGTERM to API 2 under load',
    async inject(h, run) {
      const victim = h.apis[1]!;
      const started = Date.now();
      const code = await victim.stop(15_000);
      run.notes.push(`API 2 exited with ${code} after ${seconds(Date.now() - started)}; started again`);
      if (code !== 0) run.problems.push(`API 2 exited with ${code} on SIGTERM\n${victim.tail()}`);
      h.apis[1] = h.startApi(1);
      run.ended();
    },
  },
  {
    id: 'hanging-receiver',
    title: `${TEST_EVENTS} test events to a webhook receiver that never answers, then a sign-up`,
    async inject(h, run) {
      const { mailMs, problem } = await hangingReceiver({ apiUrl: h.apiUrls[0]!, smtp: h.smtp, db: h.db });
      if (problem) run.problems.push(`${problem}\n${h.worker.tail()}`);
      else
        run.notes.push(
          `activation mail in the sink after ${mailMs} ms (limit ${ACTIVATION_MAIL_LIMIT_MS} ms)`,
        );
      run.ended();
    },
  },
];

/** `npm run test:faults -- worker-kill smtp-outage` runs those faults only; no argument runs them all. */
function chosenFaults(): Fault[] {
  const ids = process.argv.slice(2);
  const unknown = ids.filter((id) => !FAULTS.some((fault) => fault.id === id));
  if (unknown.length)
    throw new Error(
      `No fault named ${unknown.join(', ')}; the faults are ${FAULTS.map((f) => f.id).join(', ')}`,
    );
  return ids.length ? FAULTS.filter((fault) => ids.includes(fault.id)) : FAULTS;
}

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

function statusSummary(outcomes: RequestOutcome[]): string {
  const counts = new Map<number, number>();
  for (const o of outcomes) if (!isServed(o.status)) counts.set(o.status, (counts.get(o.status) ?? 0) + 1);
  if (counts.size === 0) return 'none';
  return [...counts]
    .sort(([a], [b]) => a - b)
    .map(([status, n]) => `${n} × ${status === 0 ? 'no answer' : status}`)
    .join(', ');
}

function printTable(results: FaultResult[]) {
  const header = [
    'fault',
    'served (2xx)',
    'logged',
    'lost',
    'logged twice',
    'over quota',
    'quota count off',
    'mails delivered/expected (duplicates)',
    'recovery',
  ];
  const rows = results.map((r) => {
    const slowest = r.recoveryMs.some((ms) => ms === undefined)
      ? `no (API ${r.recoveryMs
          .map((ms, i) => (ms === undefined ? i + 1 : 0))
          .filter(Boolean)
          .join(', ')})`
      : seconds(Math.max(...(r.recoveryMs as number[])));
    const mail = r.mailing
      ? `${r.mailing.delivered}/${r.mailing.expected} (${r.mailing.duplicates}` +
        `${r.mailing.resent ? `, ${r.mailing.resent} with a repeated Message-ID` : ''})`
      : '-';
    const mailDone = r.mailing
      ? `; mailing ${r.mailing.doneAfterMs === undefined ? 'not done' : `done +${seconds(r.mailing.doneAfterMs)}`}`
      : '';
    return [
      r.fault.title,
      String(r.served),
      String(r.logged),
      String(r.lost),
      String(r.loggedTwice),
      String(r.overQuota),
      String(r.miscounted),
      mail,
      `${slowest}${mailDone}`,
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(line(header));
  console.log(`| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`);
  for (const row of rows) console.log(line(row));
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

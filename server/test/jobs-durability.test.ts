// Without Redis a queued job is a row of the database, not a promise in memory: a process that dies with jobs queued
// or running loses none of them; the next process on the same database runs each once.
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { loadConfig } from '../src/config';
import { openDatabase, type DatabaseHandle } from '../src/db/client';
import { jobs } from '../src/db/schema';
import { createInlineQueue } from '../src/queue/inline-queue';
import type { Job } from '../src/queue/job-types';
import { createRuntime } from '../src/runtime';
import { createScratchDatabase, type ScratchDatabase } from './support/scratch-database';
import { startSmtpSink, type SmtpSink } from './support/smtp-sink';
import { eventually } from './support/test-app';

const silent = { info: () => {}, error: () => {} };
// A process that died holds its jobs' leases; a short lease lets the next process on a shared server take over soon.
const LEASE_MS = 300;

let dataDir: string;
let scratch: ScratchDatabase | undefined;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'afrofx-jobs-'));
  scratch = process.env.DATABASE_URL
    ? await createScratchDatabase(process.env.DATABASE_URL, 'afrofx_jobs')
    : undefined;
});
afterEach(async () => {
  await scratch?.drop();
  await rm(dataDir, { recursive: true, force: true });
});

/** The product's own storage: PGlite in DATA_DIR, or a database of its own on the server of DATABASE_URL. */
async function openStorage(): Promise<DatabaseHandle> {
  const database = await openDatabase({
    databaseUrl: scratch?.url,
    pgliteDir: scratch ? undefined : path.join(dataDir, 'pglite'),
  });
  await database.migrate();
  return database;
}

describe('the inline job queue across a crash', () => {
  it('runs a job whose process died while running it once in the next process', async () => {
    const first = await openStorage();
    let started = 0;
    const crashed = createInlineQueue({
      db: first.db,
      log: silent,
      leaseMs: LEASE_MS,
      closeGraceMs: 10,
      exclusive: !scratch,
      run: () => {
        started++;
        return new Promise<void>(() => {}); // never finishes: the process dies holding the job
      },
    });
    await crashed.enqueue('rates-csv', { email: 'export@example.com' }, { jobId: 'export-1' });
    await eventually(async () => expect(started).toBe(1));
    await crashed.close();
    await first.close();

    const second = await openStorage();
    const ran: Job[] = [];
    const resumed = createInlineQueue({
      db: second.db,
      log: silent,
      leaseMs: LEASE_MS,
      exclusive: !scratch,
      run: async (job) => void ran.push(job),
    });
    // The same work enqueued again under its jobId is still the one job.
    await resumed.enqueue('rates-csv', { email: 'export@example.com' }, { jobId: 'export-1' });
    await eventually(async () => expect(ran).toHaveLength(1));
    await resumed.drain();
    expect(ran).toEqual([{ name: 'rates-csv', data: { email: 'export@example.com' } }]);
    expect(await second.db.select({ state: jobs.state, attempts: jobs.attempts }).from(jobs)).toEqual([
      { state: 'done', attempts: 2 },
    ]);
    await resumed.close();
    await second.close();
  });
});

describe('a runtime without Redis that crashes with mail queued', () => {
  let sink: SmtpSink;
  let silentSmtp: net.Server;
  const silentConnections = new Set<net.Socket>();
  beforeAll(async () => {
    sink = await startSmtpSink();
    // Accepts connections and never greets: a mail job sent here hangs until its process dies.
    silentSmtp = net.createServer((socket) => void silentConnections.add(socket));
    await new Promise<void>((resolve) => silentSmtp.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await sink.close();
    for (const socket of silentConnections) socket.destroy();
    await new Promise<void>((resolve) => silentSmtp.close(() => resolve()));
  });

  const start = (smtpUrl: string) =>
    createRuntime(
      loadConfig({
        NODE_ENV: 'test',
        DATA_DIR: dataDir,
        DATABASE_URL: scratch?.url ?? '',
        REDIS_URL: '',
        SMTP_URL: smtpUrl,
        DEMO_DATA: 'false',
        WEB_DIST: '',
      }),
      { jobBackoffMs: 10, jobLeaseMs: LEASE_MS },
    );

  it('delivers the mail once after a restart on the same database', async () => {
    const { port } = silentSmtp.address() as net.AddressInfo;
    const crashed = await start(`smtp://127.0.0.1:${port}?greetingTimeout=600000`);
    await crashed.queue.enqueue('rates-csv', { email: 'ops@example.com' });
    await eventually(async () =>
      expect(await crashed.database.db.select({ state: jobs.state }).from(jobs)).toEqual([
        { state: 'running' },
      ]),
    );
    // A crash, not a shutdown: the database goes away under the running job, nothing is drained.
    await crashed.database.close();

    const restarted = await start(sink.url);
    await eventually(async () =>
      expect(sink.delivered.map((mail) => mail.to)).toEqual([['ops@example.com']]),
    );
    await restarted.queue.drain();
    expect(
      await restarted.database.db.select({ state: jobs.state }).from(jobs).where(eq(jobs.state, 'done')),
    ).toHaveLength(1);
    expect(sink.delivered).toHaveLength(1);
    await restarted.close();
  });
});

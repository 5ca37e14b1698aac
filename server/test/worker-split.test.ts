// With REDIS_URL the API process only produces jobs; the worker process consumes them (docs/operations.md).
// Real processes started from the sources, watched through the BullMQ queue they share.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Queue, type ConnectionOptions } from 'bullmq';
import IORedis from 'ioredis';
import { QUEUE_NAME } from '../src/queue/queue';
import { eventually, redisAvailable } from './support/test-app';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const children: ChildProcess[] = [];
const dataDirs: string[] = [];

async function startApi(env: Record<string, string>): Promise<void> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'afrofx-split-'));
  dataDirs.push(dataDir);
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, '../src/main.ts')], {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      DEMO_DATA: 'false',
      LOG_LEVEL: 'silent',
      WEB_DIST: '',
      PORT: String(port),
      HOST: '127.0.0.1',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  await eventually(async () => {
    const res = await fetch(`http://127.0.0.1:${port}/v1/health`);
    if (!res.ok) throw new Error(`health answered ${res.status}`);
  }, 90_000);
}

// Needs a Redis server (REDIS_URL): without one the API runs its jobs itself by design.
const describeWithRedis = redisAvailable ? describe : describe.skip;

describeWithRedis('the API process with REDIS_URL', () => {
  let connection: IORedis;
  let queue: Queue;
  beforeAll(() => {
    connection = new IORedis(process.env.REDIS_URL!, { maxRetriesPerRequest: null });
    queue = new Queue(QUEUE_NAME, {
      connection: connection as unknown as ConnectionOptions,
      prefix: 'afrofx',
    });
  });
  afterAll(async () => {
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null) return resolve();
            child.on('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      ),
    );
    await queue.close();
    connection.disconnect();
    await Promise.all(dataDirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('consumes no jobs unless RUN_WORKER_IN_API=true, which makes it a worker too', async () => {
    expect(await queue.getWorkers()).toHaveLength(0);
    await startApi({});
    // The second process starts after the first is serving, so a worker the first one opened is connected by then.
    await startApi({ RUN_WORKER_IN_API: 'true' });
    await eventually(async () => expect(await queue.getWorkers()).toHaveLength(1), 30_000);
  }, 200_000);
});

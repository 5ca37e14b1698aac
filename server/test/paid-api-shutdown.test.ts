// SIGTERM during load: a real server process, started from the sources, exits cleanly and every request it
// served is in the request log.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import { loadConfig } from '../src/config';
import { requestLogs } from '../src/db/schema';
import { createRuntime } from '../src/runtime';
import { paidClient } from './support/paid-api';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('graceful shutdown of the paid API', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'afrofx-shutdown-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('exits cleanly on SIGTERM under load and has logged every request it served', async () => {
    // The process under test keeps the embedded database in dataDir; this runtime prepares it, then lets go.
    const env = {
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      DEMO_DATA: 'true',
      DATABASE_URL: '',
      REDIS_URL: '',
      LOG_LEVEL: 'silent',
      WEB_DIST: '',
    };
    const setup = await createRuntime(loadConfig(env));
    const client = await paidClient({ runtime: setup }, { limit: 1_000_000 });
    await setup.close();

    const port = await freePort();
    const server = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, '../src/main.ts')], {
      env: {
        ...process.env,
        ...env,
        DEMO_DATA: 'false',
        PORT: String(port),
        HOST: '127.0.0.1',
        REQUEST_LOG_FLUSH_MS: '5000',
        API_BURST_PER_SECOND: '100000',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => server.on('exit', (code) => resolve(code)));
    const base = `http://127.0.0.1:${port}`;
    for (let ready = false; !ready;) {
      ready = await fetch(`${base}/v1/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (!ready) await new Promise((r) => setTimeout(r, 100));
    }

    let answered = 0;
    const shed: number[] = [];
    let signalled = false;
    const worker = async () => {
      for (;;) {
        try {
          const res = await fetch(`${base}/v1/rates`, { headers: client.headers });
          await res.arrayBuffer();
          // Once closing, Fastify sheds a request that arrives on an open connection with a 503 before any hook:
          // no key was read and nothing served, so there is nothing to log.
          if (res.status === 200) answered++;
          else shed.push(res.status);
        } catch {
          return; // the server has stopped accepting requests
        }
        if (answered >= 300 && !signalled) {
          signalled = true;
          server.kill('SIGTERM');
        }
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    expect(await exited).toBe(0);

    const after = await createRuntime(loadConfig(env));
    try {
      const [logged] = await after.database.db
        .select({ value: count() })
        .from(requestLogs)
        .where(eq(requestLogs.appId, client.appId));
      expect(answered).toBeGreaterThanOrEqual(300);
      expect(shed.filter((status) => status !== 503)).toEqual([]);
      expect(logged?.value).toBeGreaterThanOrEqual(answered);
    } finally {
      await after.close();
    }
    // Every wait above is on an event (health answering, the load's 300 answers, the exit); on a busy machine the
    // child's start (compiling the sources, opening the embedded database) alone can take most of a minute.
  }, 180_000);
});

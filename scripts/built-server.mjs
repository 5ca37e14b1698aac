// Starts the built server (server/dist, web/dist) on a free port with a fresh data directory and the demo data:
// the embedded defaults, as a visitor of a fresh install meets them. Used by the e2e run and the web bench.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const HEALTH_TIMEOUT_MS = 60_000;

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

async function waitForHealth(baseUrl, server) {
  const deadline = Date.now() + HEALTH_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (server.exitCode !== null)
      throw new Error(`the server exited with code ${server.exitCode} before it was ready`);
    try {
      const response = await fetch(`${baseUrl}/v1/health`, { signal: AbortSignal.timeout(2000) });
      if (response.status === 200) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`GET ${baseUrl}/v1/health did not answer 200 within ${HEALTH_TIMEOUT_MS / 1000} s`);
}

function stopServer(server) {
  if (server.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => server.kill('SIGKILL'), 10_000);
    server.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    server.kill('SIGTERM');
  });
}

/**
 * The central banks' addresses for a server started here: a closed port on this machine, so a run sends nothing
 * outside it (the sources show as down at once, and the demo data's month of official figures is served).
 */
export const OFFLINE_OFFICIAL_SOURCES = {
  OFFICIAL_CBN_URL: 'http://127.0.0.1:9/cbn',
  OFFICIAL_CBK_URL: 'http://127.0.0.1:9/cbk',
  OFFICIAL_SARB_URL: 'http://127.0.0.1:9/sarb',
  OFFICIAL_BOG_URL: 'http://127.0.0.1:9/bog',
};

/**
 * Starts server/dist/main.cjs and waits until /v1/health answers 200.
 * @returns {Promise<{ baseUrl: string, dataDir: string, stop: () => Promise<void> }>}
 */
export async function startBuiltServer() {
  const port = await freePort();
  const baseUrl = `http://localhost:${port}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'afrofx-built-'));
  const serverEnv = {
    ...process.env,
    NODE_ENV: 'development',
    PORT: String(port),
    DATA_DIR: dataDir,
    PUBLIC_URL: baseUrl,
    DEMO_DATA: 'true',
    ADMIN_EMAIL: 'admin@example.com',
    ADMIN_PASSWORD: 'afrofx-admin',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    ...OFFLINE_OFFICIAL_SOURCES,
  };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'SMTP_URL', 'WEB_DIST']) delete serverEnv[name];

  console.log(`\n==> starting the server on ${baseUrl} (data in ${dataDir})`);
  const server = spawn(process.execPath, ['server/dist/main.cjs'], {
    cwd: root,
    env: serverEnv,
    stdio: 'inherit',
  });
  const stop = async () => {
    await stopServer(server);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHealth(baseUrl, server);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl, dataDir, stop };
}

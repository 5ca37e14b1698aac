// Builds the app, starts it on a free port with a fresh data directory, starts one Chromium for every spec, and
// runs the browser specs against them.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { root, startBuiltServer } from './built-server.mjs';

const launchOptions = JSON.parse(readFileSync(path.join(root, 'web/e2e/chromium-launch.json'), 'utf8'));

function run(command, args, env = process.env) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

/** Like run, without blocking this process: the shared browser's endpoint lives here and must keep answering. */
function runAsync(command, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit', env });
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

async function main() {
  const buildStatus = run('npm', ['run', 'build']);
  if (buildStatus !== 0) return buildStatus;

  const server = await startBuiltServer();
  let browser;
  try {
    browser = await chromium.launchServer({
      ...launchOptions,
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    });
    return await runAsync('npx', ['jest', '-c', 'jest.e2e.config.js', ...process.argv.slice(2)], {
      ...process.env,
      E2E_BASE_URL: server.baseUrl,
      E2E_DATA_DIR: server.dataDir,
      E2E_BROWSER_WS_ENDPOINT: browser.wsEndpoint(),
    });
  } finally {
    await browser?.close();
    await server.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);

// Builds the app, starts it on free ports with fresh data directories (one per jest worker), starts one Chromium for
// every spec, and runs the browser specs against them, two at a time.
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
  // CI builds once, before Lighthouse and the SDK package check, and says so; anyone else gets a fresh build.
  if (process.env.E2E_PREBUILT !== '1') {
    const buildStatus = run('npm', ['run', 'build']);
    if (buildStatus !== 0) return buildStatus;
  }

  // The specs wait on the network and the server much of the time: two jest workers run specs side by side, each
  // against a server of its own, and keep both cores busy.
  const workers = Number(process.env.E2E_WORKERS || 2);
  const servers = [];
  let browser;
  try {
    for (let worker = 1; worker <= workers; worker++) servers.push(await startBuiltServer());
    browser = await chromium.launchServer({
      ...launchOptions,
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    });
    const env = { ...process.env, E2E_BROWSER_WS_ENDPOINT: browser.wsEndpoint() };
    servers.forEach((server, i) => {
      env[`E2E_BASE_URL_${i + 1}`] = server.baseUrl;
      env[`E2E_DATA_DIR_${i + 1}`] = server.dataDir;
    });
    return await runAsync(
      'npx',
      ['jest', '-c', 'jest.e2e.config.js', `--maxWorkers=${workers}`, ...process.argv.slice(2)],
      env,
    );
  } finally {
    await browser?.close();
    await Promise.all(servers.map((server) => server.stop()));
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);

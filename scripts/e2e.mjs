// Builds the app, starts it on a free port with a fresh data directory, and runs the browser specs against it.
import { spawnSync } from 'node:child_process';
import { root, startBuiltServer } from './built-server.mjs';

function run(command, args, env = process.env) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

async function main() {
  const buildStatus = run('npm', ['run', 'build']);
  if (buildStatus !== 0) return buildStatus;

  const server = await startBuiltServer();
  try {
    return run('npx', ['jest', '-c', 'jest.e2e.config.js', ...process.argv.slice(2)], {
      ...process.env,
      E2E_BASE_URL: server.baseUrl,
      E2E_DATA_DIR: server.dataDir,
    });
  } finally {
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

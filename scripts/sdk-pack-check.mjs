// CI (npm run sdk:pack-check): @afrofx/sdk as a customer installs it. Packs the package with `npm pack`, installs the
// tarball into three scratch projects (plain Node ES modules, plain Node CommonJS, and TypeScript from `tsc --init`
// with `strict`), and runs sdk/README.md's first-call example in each against the built server (server/dist, web/dist:
// run `npm run build` first), signed in as the demo developer with a fresh key. Exits 1 on the first failure.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { root, startBuiltServer } from './built-server.mjs';

/** The demo developer that DEMO_DATA seeds (server/src/config.ts PUBLISHED_PASSWORDS). */
const DEMO_DEVELOPER = { email: 'developer@example.com', password: 'afrofx-developer' };
const NPM_INSTALL = ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];

/** The fenced block that follows `<!-- example: NAME -->` in the SDK's README. */
function readmeExample(name) {
  const readme = readFileSync(path.join(root, 'sdk/README.md'), 'utf8');
  const match = new RegExp(`<!-- example: ${name} -->\\s*\`\`\`\\w*\\n([\\s\\S]*?)\`\`\``).exec(readme);
  if (!match) throw new Error(`sdk/README.md has no "example: ${name}" block`);
  return match[1];
}

function run(command, args, cwd, env = process.env) {
  console.log(`$ ${[command, ...args].join(' ')}   (in ${path.basename(cwd)})`);
  return execFileSync(command, args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
}

async function call(baseUrl, method, route, token) {
  const res = await fetch(`${baseUrl}/v1/${route}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : { 'content-type': 'application/json' }),
    },
    body: token ? undefined : JSON.stringify(DEMO_DEVELOPER),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

/** A fresh private key of the demo developer's first app. */
async function demoKey(baseUrl) {
  const { token } = await call(baseUrl, 'POST', 'account/signin');
  const [app] = await call(baseUrl, 'GET', 'apps/all_apps', token);
  if (!app) throw new Error('the demo developer has no app');
  return (await call(baseUrl, 'POST', `account/generate_api_key/${app._id}`, token)).private_key;
}

/** Runs one scratch project's example and checks it printed a rate. */
function runExample(dir, file, env) {
  const output = run(process.execPath, [file], dir, env);
  process.stdout.write(output);
  if (!/buy [\d.]+, sell [\d.]+/.test(output)) throw new Error(`${file} printed no rate`);
}

async function main() {
  const scratch = mkdtempSync(path.join(tmpdir(), 'afrofx-sdk-pack-'));
  const server = await startBuiltServer();
  try {
    run('npm', ['pack', '-w', 'sdk', '--pack-destination', scratch, '--loglevel=error'], root);
    const tarball = path.join(
      scratch,
      readdirSync(scratch).find((file) => file.endsWith('.tgz')),
    );
    const files = run('tar', ['-tzf', tarball], scratch).trim().split('\n').sort();
    console.log(files.join('\n'));
    const unexpected = files.filter(
      (file) => !/^package\/(dist\/|package\.json$|README\.md$|LICENSE$)/.test(file),
    );
    if (unexpected.length)
      throw new Error(`the package ships files outside its build: ${unexpected.join(', ')}`);

    const env = { ...process.env, AFROFX_URL: server.baseUrl, AFROFX_KEY: await demoKey(server.baseUrl) };
    const project = (name, extra = []) => {
      const dir = path.join(scratch, name);
      mkdirSync(dir);
      run('npm', ['init', '-y', '--loglevel=error'], dir);
      run('npm', [...NPM_INSTALL, tarball, ...extra], dir);
      return dir;
    };

    const esm = project('node-esm');
    writeFileSync(path.join(esm, 'index.mjs'), readmeExample('esm'));
    runExample(esm, 'index.mjs', env);

    const cjs = project('node-cjs');
    writeFileSync(path.join(cjs, 'index.cjs'), readmeExample('cjs'));
    runExample(cjs, 'index.cjs', env);

    // The TypeScript and Node types of this repository, so the check runs offline and on the versions CI knows.
    const typescript = JSON.parse(
      readFileSync(path.join(root, 'node_modules/typescript/package.json'), 'utf8'),
    );
    const nodeTypes = JSON.parse(
      readFileSync(path.join(root, 'node_modules/@types/node/package.json'), 'utf8'),
    );
    const ts = project('typescript', [
      `typescript@${typescript.version}`,
      `@types/node@${nodeTypes.version}`,
    ]);
    run('npm', ['pkg', 'set', 'type=module'], ts);
    // `tsc --init`'s own settings, with the Node types its file says a Node project turns on.
    run(path.join(ts, 'node_modules/.bin/tsc'), ['--init', '--strict', '--types', 'node'], ts);
    writeFileSync(path.join(ts, 'index.ts'), readmeExample('esm'));
    run(path.join(ts, 'node_modules/.bin/tsc'), ['-p', '.'], ts);
    console.log('tsc: 0 errors');
    runExample(ts, 'index.js', env);
    console.log(
      '\nsdk pack check: the packed @afrofx/sdk runs its README example in ESM, CommonJS and strict TypeScript',
    );
  } finally {
    await server.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});

// Lints the paid API's document as GET /v1/openapi.json serves it, with customers' own tools: @redocly/cli's
// recommended rules (0 errors and 0 warnings) and Spectral with the OWASP ruleset (.spectral.mjs, 0 errors).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const bin = (name: string) => path.join(root, 'node_modules/.bin', name);
const dir = mkdtempSync(path.join(tmpdir(), 'afrofx-api-lint-'));
const document = path.join(dir, 'openapi.json');

function run(command: string, args: string[]) {
  // CI has no network to spare: no telemetry, no update check.
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
  const result = spawnSync(command, args, { cwd: root, encoding: 'utf8', env });
  if (result.error) throw result.error;
  return result;
}

let failed = false;
try {
  const served = run(bin('tsx'), [path.join(root, 'scripts/api-contract/served-document.ts'), document]);
  if (served.status !== 0) throw new Error(`Could not build the document:\n${served.stderr}`);

  const redocly = run(bin('redocly'), [
    'lint',
    document,
    '--config',
    path.join(root, 'redocly.yaml'),
    '--format=json',
  ]);
  const { totals, problems } = JSON.parse(redocly.stdout) as {
    totals: { errors: number; warnings: number };
    problems: Array<{
      ruleId: string;
      severity: string;
      message: string;
      location: Array<{ pointer: string }>;
    }>;
  };
  for (const problem of problems)
    console.log(
      `redocly ${problem.severity} ${problem.ruleId} ${problem.location[0]?.pointer}: ${problem.message}`,
    );
  console.log(`redocly (recommended): ${totals.errors} errors, ${totals.warnings} warnings`);
  if (totals.errors + totals.warnings > 0) failed = true;

  const spectral = run(bin('spectral'), [
    'lint',
    document,
    '--ruleset',
    path.join(root, '.spectral.mjs'),
    '--format',
    'text',
    '--fail-severity',
    'error',
  ]);
  const errors = spectral.stdout.split('\n').filter((line) => /:\d+:\d+\s+error\s/.test(line));
  for (const line of errors) console.log(`spectral ${line.replace(document, 'openapi.json')}`);
  const warnings = spectral.stdout.split('\n').filter((line) => /:\d+:\d+\s+warning\s/.test(line)).length;
  console.log(`spectral (OWASP, .spectral.mjs): ${errors.length} errors, ${warnings} warnings`);
  if (spectral.status !== 0) failed = true;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;

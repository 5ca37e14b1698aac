// Writes the paid API's OpenAPI document exactly as GET /v1/openapi.json serves it at `npm start`'s defaults (no
// NODE_ENV, no PUBLIC_URL: http://localhost:3000), from an app on an embedded scratch database with no network: the
// linters and the SDK generator read this file, never a hand-kept or test-mode copy.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../../server/src/app';
import { loadConfig } from '../../server/src/config';
import { createRuntime } from '../../server/src/runtime';

async function main(output: string) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'afrofx-openapi-'));
  // Only where the data lives differs from `npm start`: a scratch directory, so no real data is read or written.
  const config = loadConfig({ DATA_DIR: dataDir });
  const runtime = await createRuntime(config, { inMemoryDatabase: true });
  const app = await buildApp(runtime);
  try {
    const res = await app.inject({ method: 'GET', url: '/v1/openapi.json' });
    if (res.statusCode !== 200) throw new Error(`GET /v1/openapi.json answered ${res.statusCode}`);
    await writeFile(output, `${JSON.stringify(res.json(), null, 2)}\n`);
  } finally {
    await app.close();
    await runtime.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

void main(process.argv[2] ?? 'openapi.json');

// Writes the paid API's OpenAPI document exactly as GET /v1/openapi.json serves it, from an app on an embedded
// database with no network: the linters and the SDK generator read this file, never a hand-kept copy.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../../server/src/app';
import { loadConfig } from '../../server/src/config';
import { createRuntime } from '../../server/src/runtime';

async function main(output: string) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'afrofx-openapi-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    PUBLIC_URL: 'https://api.afrofx.example',
    ADMIN_EMAIL: 'admin@example.com',
    ADMIN_PASSWORD: 'openapi-document-only',
    DEMO_DATA: 'false',
    WEB_DIST: '',
  });
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

// The built web app as the server sends it: the build's .br/.gz files, long-lived caching for hashed assets only.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { createTestApp, type TestApp } from './support/test-app';

const INDEX_HTML =
  '<!doctype html><html><head><script type="module" src="/assets/index-Ab12Cd34.js"></script></head></html>';
const ENTRY_JS = `export const rates = ${JSON.stringify(Array.from({ length: 200 }, (_, i) => `row ${i}`))};`;

let t: TestApp;
let webDist: string;

/** A web/dist as `npm run build -w web` leaves it: every file with its .br and .gz beside it. */
async function writeBuiltFile(relative: string, content: string) {
  const file = path.join(webDist, relative);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
  await writeFile(`${file}.br`, brotliCompressSync(content));
  await writeFile(`${file}.gz`, gzipSync(content));
}

beforeAll(async () => {
  webDist = await mkdtemp(path.join(tmpdir(), 'afrofx-web-dist-'));
  await writeBuiltFile('index.html', INDEX_HTML);
  await writeBuiltFile('assets/index-Ab12Cd34.js', ENTRY_JS);
  // Beside the public pages' renderer (entry-server.js), which the server loads and never sends.
  await writeBuiltFile('server/assets-chunk.js', ENTRY_JS);
  t = await createTestApp({ WEB_DIST: webDist });
});
afterAll(async () => {
  await t.close();
  await rm(webDist, { recursive: true, force: true });
});

describe('hashed assets', () => {
  const url = '/assets/index-Ab12Cd34.js';

  it('sends the brotli file to a browser that accepts br, cached for a year as immutable', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url,
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(ENTRY_JS);
  });

  it('sends the gzip file to a client that accepts only gzip', async () => {
    const res = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(res.rawPayload).toString()).toBe(ENTRY_JS);
  });

  it('sends the plain file, still varying on Accept-Encoding, to a client that accepts no compression', async () => {
    const res = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.body).toBe(ENTRY_JS);
  });
});

describe('index.html', () => {
  it('is revalidated on every visit, with no rates call to start beside it (its rates are in the page)', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/',
      headers: { accept: 'text/html', 'accept-encoding': 'br' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers.link).toBeUndefined();
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(INDEX_HTML);
  });

  it('is revalidated as the fallback of a client route', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/admin/login',
      headers: { accept: 'text/html', 'accept-encoding': 'gzip' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers.link).toBeUndefined();
    expect(gunzipSync(res.rawPayload).toString()).toBe(INDEX_HTML);
  });

  it('never sends the server renderer’s files', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/server/assets-chunk.js' });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('row 1');
  });

  it('answers an unknown asset with 404, not the page', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/assets/index-Zz99.js',
      headers: { accept: '*/*' },
    });
    expect(res.statusCode).toBe(404);
  });
});

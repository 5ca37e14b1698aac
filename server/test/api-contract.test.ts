// The paid API's OpenAPI document is the contract customers' tools read. Every operation has a stable
// name, and every status and header a call really answers is in the document: the calls are made against the app.
import { OPERATION_IDS } from '../src/api-contract';
import { paidClient, type PaidClient } from './support/paid-api';
import { createTestApp, type TestApp } from './support/test-app';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let t: TestApp;
let document: Json;
let client: PaidClient;
let noPlan: PaidClient;
beforeAll(async () => {
  t = await createTestApp();
  document = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
  client = await paidClient(t);
  noPlan = await paidClient(t, null);
});
afterAll(() => t.close());

const METHODS = ['get', 'post', 'put', 'delete', 'patch'];
const operations = () =>
  Object.entries(document.paths as Json).flatMap(([path, item]) =>
    Object.entries(item as Json)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => ({ method, path, operation: operation as Json })),
  );
const keyOperations = () => operations().filter(({ operation }) => 'apiKey' in (operation.security[0] ?? {}));
/** A call of the operation with its path parameters filled and its required query parameters given. */
const urlOf = (path: string, operation: Json) => {
  const query: Record<string, string> = {
    market: 'bank',
    base: 'naira',
    asset: 'dollar',
    amount: '10',
    from: 'dollar',
    to: 'naira',
    interval: 'day',
  };
  // The compatible calls' ranges and path parameters, as their peers' customers write them.
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  const inPath: Record<string, string> = { date: yesterday, amount: '10', from: 'USD', to: 'NGN' };
  Object.assign(query, { start_date: yesterday, end_date: yesterday });
  const required = (operation.parameters ?? []).filter((p: Json) => p.in === 'query' && p.required);
  const search = new URLSearchParams(required.map((p: Json) => [p.name, query[p.name] ?? '']));
  const filled = path.replace(/\{(\w+)\}/g, (_whole, name: string) => inPath[name] ?? name);
  return `${filled}${required.length ? `?${search}` : ''}`;
};
/** The compatible calls answer errors in their peer's shape (Open Exchange Rates, Fixer), documented as such. */
const isCompatible = (operation: Json) => (operation.tags as string[]).includes('Compatibility');

test('every operation has a unique camelCase operationId, a summary and a description', () => {
  const ids = operations().map(({ operation }) => operation.operationId as string);
  expect(ids.length).toBeGreaterThan(10);
  expect(new Set(ids).size).toBe(ids.length);
  for (const { operation } of operations()) {
    expect(operation.operationId).toMatch(/^[a-z][a-zA-Z0-9]*$/);
    expect(operation.summary).toBeTruthy();
    expect(operation.description).toBeTruthy();
  }
  expect(Object.values(OPERATION_IDS)).toEqual(expect.arrayContaining(ids));
});

test('schemas are named (no def-N) and the error envelope has an example', () => {
  expect(Object.keys(document.components.schemas)).toEqual(['Error']);
  expect(JSON.stringify(document)).not.toMatch(/def-\d/);
  expect(document.components.schemas.Error.examples[0]).toMatchObject({ statusCode: 400 });
});

test('status calls need no key, and the servers are PUBLIC_URL', () => {
  expect(document.paths['/v1/health'].get.security).toEqual([]);
  expect(document.paths['/v1/status'].get.security).toEqual([]);
  expect(document.servers).toEqual([{ url: 'http://afrofx.test', 'x-internal': false }]);
});

test('the webhooks section describes each delivery', () => {
  expect(Object.keys(document.webhooks).sort()).toEqual([
    'rate.corrected',
    'rate.threshold',
    'rate.updated',
    'webhook.test',
  ]);
  const body = document.webhooks['rate.updated'].post.requestBody.content['application/json'].schema;
  expect(body.required).toEqual(expect.arrayContaining(['id', 'type', 'createdAt', 'data']));
});

test('a call without a key answers a documented 401 with the documented headers', async () => {
  for (const { method, path, operation } of keyOperations()) {
    const res = await t.app.inject({ method: method.toUpperCase() as 'GET', url: urlOf(path, operation) });
    expect([path, res.statusCode]).toEqual([path, 401]);
    const schema = operation.responses['401'].content['application/json'].schema;
    if (isCompatible(operation)) expect(Object.keys(res.json())).toEqual(schema.required);
    else expect(schema).toEqual({ $ref: '#/components/schemas/Error' });
    expect(res.headers['access-control-allow-origin']).toBe('*');
  }
});

test('an app without a plan gets a documented 402; a paid call a 2xx with RateLimit headers', async () => {
  for (const { method, path, operation } of keyOperations()) {
    const url = urlOf(path, operation);
    const refused = await t.app.inject({
      method: method.toUpperCase() as 'GET',
      url,
      headers: noPlan.headers,
    });
    expect([path, refused.statusCode]).toEqual([path, 402]);
    expect(operation.responses['402']).toBeDefined();

    const served = await t.app.inject({
      method: method.toUpperCase() as 'GET',
      url,
      headers: client.headers,
    });
    const status = String(served.statusCode);
    expect([path, Object.keys(operation.responses)]).toEqual([path, expect.arrayContaining([status])]);
    for (const header of Object.keys(operation.responses[status].headers ?? {}).filter((h) =>
      h.startsWith('RateLimit'),
    ))
      expect([path, header, served.headers[header.toLowerCase()]]).toEqual([path, header, expect.anything()]);
    for (const header of ['RateLimit-Policy', 'RateLimit', 'Access-Control-Allow-Origin'])
      expect(operation.responses[status].headers[header]).toBeDefined();
    expect(operation.responses['429'].headers['Retry-After']).toBeDefined();
    expect(operation.responses['500']).toBeDefined();
  }
});

test('conditional calls document If-None-Match, ETag and Last-Modified, and answer 304 to their ETag', async () => {
  const conditional = keyOperations().filter(({ operation }) => '304' in operation.responses);
  expect(conditional.map(({ path }) => path)).toEqual(
    expect.arrayContaining(['/v1/rates', '/v1/currencies']),
  );
  for (const { path, operation } of conditional) {
    expect(operation.parameters.map((p: Json) => p.name)).toContain('If-None-Match');
    expect(Object.keys(operation.responses['200'].headers)).toEqual(
      expect.arrayContaining(['ETag', 'Last-Modified']),
    );
    const first = await t.app.inject({ method: 'GET', url: urlOf(path, operation), headers: client.headers });
    const again = await t.app.inject({
      method: 'GET',
      url: urlOf(path, operation),
      headers: { ...client.headers, 'if-none-match': String(first.headers.etag) },
    });
    expect([path, again.statusCode]).toEqual([path, 304]);
  }
});

test('every JSON answer has a description and an example', () => {
  for (const { method, path, operation } of operations()) {
    for (const [status, response] of Object.entries(operation.responses as Record<string, Json>)) {
      expect([method, path, status, response.description]).not.toEqual([
        method,
        path,
        status,
        'Default Response',
      ]);
      const json = response.content?.['application/json'];
      if (!json) continue;
      const example = json.example ?? json.examples ?? json.schema.examples;
      expect([method, path, status, example]).toEqual([method, path, status, expect.anything()]);
    }
  }
  expect(
    document.paths['/v1/usage'].get.responses['200'].content['application/json'].example.data,
  ).toMatchObject({
    plan: 'Starter',
    limit: 10000,
  });
});

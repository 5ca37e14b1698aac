// Webhook management with an app's key is limited per app, and says so with the IETF RateLimit fields; once the
// window is spent it is a 429 with Retry-After in seconds, and another app's calls are not touched.
import { paidClient, type PaidClient } from './support/paid-api';
import { createTestApp, type TestApp } from './support/test-app';

let t: TestApp;
let client: PaidClient;
let other: PaidClient;

beforeAll(async () => {
  t = await createTestApp();
  client = await paidClient(t);
  other = await paidClient(t);
});
afterAll(() => t.close());

const list = (who: PaidClient) =>
  t.app.inject({ method: 'GET', url: `/v1/account/webhooks/${who.appId}`, headers: who.headers });

test('sixty calls a minute per app, then a 429 with Retry-After; the RateLimit fields count down', async () => {
  const first = await list(client);
  expect(first.statusCode).toBe(200);
  expect(first.headers['ratelimit-policy']).toBe('"webhooks";q=60;w=60');
  expect(first.headers.ratelimit).toMatch(/^"webhooks";r=59;t=\d+$/);
  expect(first.headers['ratelimit-remaining']).toBe('59');
  for (let i = 1; i < 60; i++) expect((await list(client)).statusCode).toBe(200);
  const refused = await list(client);
  expect(refused.statusCode).toBe(429);
  expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  expect(refused.headers.ratelimit).toMatch(/^"webhooks";r=0;t=\d+$/);
  expect((await list(other)).statusCode).toBe(200);
});

test("a wrong key spends nothing of the app's count", async () => {
  const stranger = await paidClient(t);
  const before = Number((await list(stranger)).headers['ratelimit-remaining']);
  const wrong = await t.app.inject({
    method: 'GET',
    url: `/v1/account/webhooks/${stranger.appId}`,
    headers: other.headers,
  });
  expect(wrong.statusCode).toBe(404);
  expect(Number((await list(stranger)).headers['ratelimit-remaining'])).toBe(before - 1);
});

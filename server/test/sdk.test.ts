// @afrofx/sdk against the real app over HTTP. Every paid call with its generated types, a 304,
// a 429 with Retry-After, endpoint management with the key, and a delivery checked with verifyWebhook.
import { createHmac } from 'node:crypto';
import { createAfroFxClient, verifyWebhook, WebhookVerificationError, type AfroFxClient } from '@afrofx/sdk';
import { paidClient, type PaidClient } from './support/paid-api';
import { startWebhookReceiver } from './support/webhook-receiver';
import { createTestApp, eventually, type TestApp } from './support/test-app';

let t: TestApp;
let paid: PaidClient;
let sdk: AfroFxClient;
let baseUrl: string;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let receiverUrl: string;

beforeAll(async () => {
  t = await createTestApp();
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  paid = await paidClient(t, { limit: 50, processed: 0 });
  sdk = createAfroFxClient({ apiKey: paid.privateKey, baseUrl });
  for (const [market, buy] of [
    ['bank', 1500],
    ['black_market_cash', 1600],
  ] as const) {
    await t.createRate({ market, base: 'naira', asset: 'dollar', buy, sell: buy + 10 });
  }
  receiver = await startWebhookReceiver();
  receiverUrl = receiver.url;
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

/** History and candles are typed JSON or CSV/NDJSON text (format=…); without format they answer JSON. */
function json<T>(data: T): Exclude<T, string | undefined> {
  if (typeof data === 'string' || data === undefined) throw new Error('expected a JSON answer');
  return data as Exclude<T, string | undefined>;
}

test('every paid call answers its typed body', async () => {
  const latest = await sdk.GET('/v1/rates', { params: { query: { base: 'NGN', symbols: 'USD' } } });
  expect(latest.response.status).toBe(200);
  const quote = latest.data!.data[0]!;
  expect(quote).toMatchObject({ base: 'naira', asset: 'dollar' });
  expect(typeof quote.mid).toBe('number');

  const today = new Date().toISOString().slice(0, 10);
  const history = await sdk.GET('/v1/rates/history', {
    params: { query: { market: 'bank', base: 'naira', asset: 'dollar', from: today, to: today } },
  });
  expect(json(history.data).data.points).toEqual([{ day: today, buy: 1500, sell: 1510 }]);

  const candles = await sdk.GET('/v1/rates/ohlc', {
    params: { query: { market: 'bank', base: 'NGN', asset: 'USD', interval: 'day' } },
  });
  expect(json(candles.data).data.candles[0]).toMatchObject({ buyOpen: 1500, entries: 1 });

  const premium = await sdk.GET('/v1/rates/premium', {
    params: { query: { base: 'naira', asset: 'dollar' } },
  });
  expect(premium.response.status).toBe(200);
  expect(premium.data!.data).toMatchObject({ base: 'naira', asset: 'dollar' });

  const converted = await sdk.GET('/v1/convert', {
    params: { query: { amount: 2, from: 'USD', to: 'NGN', market: 'bank' } },
  });
  expect(converted.data!.data).toMatchObject({ rate: 1500, result: 3000 });

  const currencies = await sdk.GET('/v1/currencies');
  expect(currencies.data!.data.assets.map((asset) => asset.code)).toEqual(['USD', 'EUR', 'GBP', 'CAD']);

  const usage = await sdk.GET('/v1/usage');
  expect(usage.data!.data).toMatchObject({ limit: 50, used: 6, remaining: 44 });
  expect(usage.response.headers.get('RateLimit-Remaining')).toBe('44');
});

test('the ETag comes back as a free 304', async () => {
  const first = await sdk.GET('/v1/currencies');
  const etag = first.response.headers.get('ETag')!;
  const again = await sdk.GET('/v1/currencies', { params: { header: { 'If-None-Match': etag } } });
  expect(again.response.status).toBe(304);
  expect(again.response.headers.get('RateLimit-Remaining')).toBe(
    first.response.headers.get('RateLimit-Remaining'),
  );
});

test('at the monthly limit: 429 with the error body and Retry-After', async () => {
  const small = await paidClient(t, { limit: 1, processed: 0 });
  const client = createAfroFxClient({ apiKey: small.privateKey, baseUrl });
  expect((await client.GET('/v1/currencies')).response.status).toBe(200);
  const refused = await client.GET('/v1/currencies');
  expect(refused.response.status).toBe(429);
  expect(refused.error).toMatchObject({ statusCode: 429, error: 'Too Many Requests' });
  expect(Number(refused.response.headers.get('Retry-After'))).toBeGreaterThan(0);
});

test('endpoints managed with the key, and a delivery checked with verifyWebhook', async () => {
  const path = { appId: paid.appId };
  const created = await sdk.POST('/v1/account/webhooks/{appId}', {
    params: { path },
    body: { url: receiverUrl, events: ['rate.updated'] },
  });
  expect(created.response.status).toBe(201);
  const { _id: endpointId, secret } = created.data!.data;
  const sent = await sdk.POST('/v1/account/webhooks/{appId}/{endpointId}/test', {
    params: { path: { ...path, endpointId } },
  });
  expect(sent.response.status).toBe(202);
  const [delivery] = await eventually(async () => {
    expect(receiver.received).toHaveLength(1);
    return receiver.received;
  });
  const event = verifyWebhook(delivery!.body, delivery!.signature, secret);
  expect(event).toMatchObject({ type: 'webhook.test', id: sent.data!.data._id });
  // Either of two secrets, as a receiver holds them while switching after a rotation.
  expect(verifyWebhook(delivery!.body, delivery!.signature, ['afxsig_old', secret]).id).toBe(event.id);
  expect(() => verifyWebhook(delivery!.body, delivery!.signature, 'afxsig_other')).toThrow(
    WebhookVerificationError,
  );
  expect(() => verifyWebhook(`${delivery!.body} `, delivery!.signature, secret)).toThrow(
    WebhookVerificationError,
  );
});

test('verifyWebhook refuses a timestamp too old or in the future', () => {
  const body = JSON.stringify({
    id: 'x',
    type: 'webhook.test',
    createdAt: '2026-11-24T00:00:00.000Z',
    data: {},
  });
  const at = 1_800_000_000;
  const header = `t=${at},v1=${createHmac('sha256', 's').update(`${at}.${body}`).digest('hex')}`;
  expect(verifyWebhook(body, header, 's', { now: at * 1000 + 299_000 }).type).toBe('webhook.test');
  expect(() => verifyWebhook(body, header, 's', { now: at * 1000 + 301_000 })).toThrow(/tolerance/);
  expect(() => verifyWebhook(body, header, 's', { now: at * 1000 - 301_000 })).toThrow(/tolerance/);
  expect(() => verifyWebhook(body, header, 's', { now: at * 1000, toleranceSeconds: 10 })).not.toThrow();
  expect(() => verifyWebhook(body, 'v1=abc', 's')).toThrow(/timestamp/);
});

// Webhooks as good as Stripe's. Endpoints are managed with the app's private key; a rotation
// keeps the old secret signing for a window (v1 twice); rate.updated carries the quote of /v1/rates; and a delivery
// verifies with Stripe's own client library.
import { eq } from 'drizzle-orm';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import Stripe from 'stripe';
import { rates, webhookEndpoints } from '../src/db/schema';
import { paidClient, type PaidClient } from './support/paid-api';
import { startWebhookReceiver } from './support/webhook-receiver';
import { createTestApp, eventually, type TestApp } from './support/test-app';

let t: TestApp;
let client: PaidClient;
let other: PaidClient;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let receiverUrl: string;
const stripe = new Stripe('sk_test_unused');

beforeAll(async () => {
  t = await createTestApp();
  client = await paidClient(t);
  other = await paidClient(t);
  receiver = await startWebhookReceiver();
  receiverUrl = receiver.url;
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

const manage = (
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  headers: Record<string, string>,
  payload?: object,
) => t.app.inject({ method, url: `/v1/account/webhooks/${url}`, headers, payload });

test('the app’s private key manages its endpoints; another app’s key or a bad key does not', async () => {
  const created = await manage('POST', client.appId, client.headers, {
    url: receiverUrl,
    events: ['rate.updated'],
  });
  expect(created.statusCode).toBe(201);
  const endpoint = created.json().data;
  expect((await manage('GET', client.appId, client.headers)).json().data).toHaveLength(1);

  const foreign = await manage('GET', client.appId, other.headers);
  expect(foreign.statusCode).toBe(404);
  const bad = await manage('GET', client.appId, { authorization: 'Bearer sk_notarealkey0000000000000' });
  expect(bad.statusCode).toBe(401);
  expect((await manage('GET', client.appId, {})).statusCode).toBe(401);
  expect((await manage('DELETE', `${client.appId}/${endpoint._id}`, other.headers)).statusCode).toBe(404);

  expect((await manage('DELETE', `${client.appId}/${endpoint._id}`, client.headers)).statusCode).toBe(200);
  expect((await manage('GET', client.appId, client.headers)).json().data).toEqual([]);
});

test('rate.updated carries the quote, and verifies with Stripe’s library under both secrets during a rotation', async () => {
  const created = await manage('POST', client.appId, client.headers, {
    url: receiverUrl,
    events: ['rate.updated'],
  });
  const endpoint = created.json().data as { _id: string; secret: string };
  expect(endpoint.secret).toMatch(/^afxsig_/);
  const rotated = await manage('POST', `${client.appId}/${endpoint._id}/rotate_secret`, client.headers);
  expect(rotated.statusCode).toBe(200);
  const secret = rotated.json().data.secret as string;

  receiver.received.length = 0;
  // Yesterday's close, for the change.
  const yesterday = new Date(Date.now() - 86_400_000);
  await t.runtime.database.db.insert(rates).values({
    market: 'bank',
    base: 'naira',
    asset: 'dollar',
    buy: 1400,
    sell: 1410,
    createdAt: yesterday,
    updatedAt: yesterday,
  });
  await t.createRate({ market: 'bank', base: 'naira', asset: 'dollar', buy: 1500, sell: 1510 });
  const [delivery] = await eventually(async () => {
    expect(receiver.received).toHaveLength(1);
    return receiver.received;
  });

  const event = JSON.parse(delivery!.body);
  expect(event).toMatchObject({ type: 'rate.updated', id: delivery!.delivery });
  const latest = (
    await t.app.inject({
      method: 'GET',
      url: '/v1/rates?market=bank&base=NGN&asset=USD',
      headers: client.headers,
    })
  ).json().data[0];
  const { ageSeconds: _age, stale: _stale, ...quote } = latest;
  expect(event.data.rate).toEqual(quote);
  expect(event.data.rate).toMatchObject({ mid: 1505, spread: 10, change: 100 });
  // The body is what the document's webhooks section says it is.
  const document = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
  const ajv = addFormats(new Ajv({ strict: false }));
  const schema = document.webhooks['rate.updated'].post.requestBody.content['application/json'].schema;
  expect([ajv.validate(schema, event), ajv.errors]).toEqual([true, null]);

  expect(delivery!.signature.match(/v1=/g)).toHaveLength(2);
  for (const key of [secret, endpoint.secret])
    expect(stripe.webhooks.constructEvent(delivery!.body, delivery!.signature, key, 300)).toMatchObject({
      id: event.id,
    });
  expect(() =>
    stripe.webhooks.constructEvent(delivery!.body, delivery!.signature, 'afxsig_other', 300),
  ).toThrow();

  // After the window only the new secret signs.
  await t.runtime.database.db
    .update(webhookEndpoints)
    .set({ previousSecretExpiresAt: new Date(Date.now() - 1) })
    .where(eq(webhookEndpoints.id, endpoint._id));
  const test = await manage('POST', `${client.appId}/${endpoint._id}/test`, client.headers);
  expect(test.statusCode).toBe(202);
  const [, later] = await eventually(async () => {
    expect(receiver.received).toHaveLength(2);
    return receiver.received;
  });
  expect(stripe.webhooks.constructEvent(later!.body, later!.signature, secret, 300)).toMatchObject({
    type: 'webhook.test',
  });
  expect(() => stripe.webhooks.constructEvent(later!.body, later!.signature, endpoint.secret, 300)).toThrow();
});

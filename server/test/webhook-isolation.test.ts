// Issue 21, item 1: a customer's receiver that never answers must not delay anyone else's work. Webhook deliveries
// run on a queue lane of their own (jobs/lanes.ts), so the activation mail of a sign-up is not behind them.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { count, eq } from 'drizzle-orm';
import { subscriptions, webhookDeliveries } from '../src/db/schema';
import { developerFactory } from './support/developers';
import { createTestApp, eventually, type TestApp } from './support/test-app';

let t: TestApp;
let hanging: Server;
const held: ServerResponse[] = [];

beforeAll(async () => {
  t = await createTestApp();
  hanging = createServer((_req, res) => void held.push(res));
  await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  held.forEach((res) => res.destroy());
  hanging.closeAllConnections();
  await new Promise((resolve) => hanging.close(resolve));
  await t.close();
});

/** A developer with an app on a plan, and its console calls. */
async function ownerOfAppOnPlan(tag: string, subnet: number) {
  const owner = await developerFactory(() => t, tag, subnet)();
  const call = (url: string, payload?: object) =>
    t.app.inject({
      method: 'POST',
      url: `/v1/${url}`,
      payload,
      headers: { authorization: `Bearer ${owner.token}` },
    });
  const appId = (await call('apps/create_app', { name: 'Webhook receiver' })).json().data._id as string;
  await t.runtime.database.db.insert(subscriptions).values({
    appId,
    planName: 'Test plan',
    status: 'active',
    requestLimit: 1000,
    startsAt: new Date(Date.now() - 86_400_000),
    expireAt: new Date(Date.now() + 86_400_000),
  });
  return { call, appId };
}

it('sends the activation mail of a sign-up within 2 s while 50 test events hang on a receiver', async () => {
  const { call, appId } = await ownerOfAppOnPlan('isolation', 61);
  const url = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/hooks`;
  const endpoint = await call(`account/webhooks/${appId}`, { url, events: ['rate.updated'] });
  expect(endpoint.statusCode).toBe(201);
  const endpointId = endpoint.json().data._id as string;
  for (let i = 0; i < 50; i++)
    expect((await call(`account/webhooks/${appId}/${endpointId}/test`)).statusCode).toBe(202);
  // The receiver holds the first deliveries open: the lane is full before the sign-up.
  await eventually(async () => expect(held.length).toBeGreaterThan(0));

  const email = 'isolated-signup@example.com';
  const signup = await t.app.inject({
    method: 'POST',
    url: '/v1/account/signup',
    payload: { email, password: 'correct-horse-battery', first_name: 'Ife', last_name: 'Obi' },
    remoteAddress: '10.62.0.1',
  });
  expect(signup.statusCode).toBe(201);
  await eventually(async () => expect((await t.outbox()).some((mail) => mail.to === email)).toBe(true), 2000);
});

it('accepts 50 test events an hour per endpoint and refuses the next with 429', async () => {
  const { call, appId } = await ownerOfAppOnPlan('test-limit', 63);
  const url = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/limited`;
  const endpointId = (await call(`account/webhooks/${appId}`, { url, events: ['rate.updated'] })).json().data
    ._id as string;
  const statuses: number[] = [];
  for (let i = 0; i < 51; i++)
    statuses.push((await call(`account/webhooks/${appId}/${endpointId}/test`)).statusCode);
  expect(statuses.filter((status) => status === 202)).toHaveLength(50);
  expect(statuses.at(-1)).toBe(429);
  const [queued] = await t.runtime.database.db
    .select({ n: count() })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, endpointId));
  expect(queued!.n).toBe(50);
});

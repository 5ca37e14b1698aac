// The webhooks lane is shared by every account: an account holds at most WEBHOOK_ACCOUNT_IN_FLIGHT deliveries in
// flight over all its apps, and accounts take turns, so that one account's hanging receivers never hold another
// account's deliveries (webhook-claim.ts).
import { randomUUID } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { webhookDeliveries } from '../src/db/schema';
import { createTestApp, eventually, type TestApp } from './support/test-app';
import { ownerOfAppOnPlan, startReceiver, whenGone, type Receiver } from './support/webhook-receivers';

let t: TestApp;
let hanging: Server;
let receiver: Receiver;
const held: ServerResponse[] = [];
/** Requests the hanging receiver holds open now, and the most at once, per first path segment (one account each). */
const open = new Map<string, number>();
const mostOpen = new Map<string, number>();

beforeAll(async () => {
  // Attempts hang for the whole test: only the caps and the turns decide who sends.
  t = await createTestApp({ WEBHOOK_TIMEOUT_MS: '600000' });
  receiver = await startReceiver();
  hanging = createServer((req, res) => {
    const account = (req.url ?? '').split('/')[1]!;
    open.set(account, (open.get(account) ?? 0) + 1);
    mostOpen.set(account, Math.max(mostOpen.get(account) ?? 0, open.get(account)!));
    whenGone(req, res, () => open.set(account, open.get(account)! - 1));
    req.resume();
    held.push(res);
  });
  await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  held.forEach((res) => res.destroy());
  hanging.closeAllConnections();
  await new Promise((resolve) => hanging.close(resolve));
  await receiver.close();
  await t.close();
});

const hangingUrl = (path: string) => `http://127.0.0.1:${(hanging.address() as AddressInfo).port}${path}`;

/** A due delivery written without asking the queue, so the test decides which sender runs when. */
async function dueDelivery(endpointId: string) {
  const id = randomUUID();
  await t.runtime.database.db.insert(webhookDeliveries).values({
    id,
    endpointId,
    event: 'webhook.test',
    payload: { id, type: 'webhook.test', data: {} },
  });
  return id;
}

it("holds one account's hanging receivers to the account's cap over all its apps, while another account's deliveries go", async () => {
  const many = await ownerOfAppOnPlan(t, 'many-apps', 81);
  const apps = [many, await many.anotherApp(), await many.anotherApp()];
  // Three apps, each under its own cap of 2, with two hanging endpoints each: six could hang without the account cap.
  for (const [i, app] of apps.entries())
    for (const j of [1, 2]) await app.sendTests(await app.register(hangingUrl(`/many/${i}-${j}`)), 2);
  await eventually(async () => expect(open.get('many')).toBe(t.config.webhooks.accountInFlight));

  const other = await ownerOfAppOnPlan(t, 'other-account', 82);
  await other.sendTests(await other.register(receiver.url), 3);
  await eventually(async () => expect(receiver.delivered).toHaveLength(3));
  expect(mostOpen.get('many')).toBe(t.config.webhooks.accountInFlight);
});

it('lets an account with nothing in flight take its turn before an account that has a delivery in flight', async () => {
  const busy = await ownerOfAppOnPlan(t, 'turn-busy', 83);
  const waiting = await ownerOfAppOnPlan(t, 'turn-waiting', 84);
  const first = await busy.register(hangingUrl('/busy/first'));
  const second = await busy.register(hangingUrl('/busy/second'));
  await busy.sendTests(first, 1);
  await eventually(async () => expect(open.get('busy')).toBe(1));

  const waitingEndpoint = await waiting.register(receiver.url);
  const waitingDelivery = await dueDelivery(waitingEndpoint);
  await dueDelivery(second);
  const webhooks = t.runtime.services.webhooks;
  // The busy account, under both its caps, gives its turn to the account with none in flight.
  expect(await webhooks.deliverNext(second)).toBe(false);
  expect(open.get('busy')).toBe(1);

  await webhooks.deliverNext(waitingEndpoint);
  await eventually(async () => expect(receiver.delivered).toContain(waitingDelivery));
  // Its turn taken, the busy account's second endpoint asks again and sends. On a starved machine an ask that could
  // not be queued in time is asked by the job's retry, a backoff later: the wait allows for one.
  await eventually(async () => expect(open.get('busy')).toBe(2), 30_000);
});

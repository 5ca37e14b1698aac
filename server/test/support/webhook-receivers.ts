// Webhook receivers the tests point endpoints at, counting what a receiver sees, and developers with apps on a plan.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { subscriptions, webhookDeliveries } from '../../src/db/schema';
import { developerFactory, type Developer } from './developers';
import type { TestApp } from './test-app';

/**
 * Calls `gone` once, when the request is over: answered, or given up by the sender. A sender that gives up closes
 * its end at once, but the server's response reports the close only later, after the sender may have connected
 * again; the socket's end is seen first.
 */
export function whenGone(req: IncomingMessage, res: ServerResponse, gone: () => void) {
  let done = false;
  const once = () => {
    if (!done) gone();
    done = true;
  };
  req.socket.once('end', once);
  res.once('close', once);
}

/**
 * A receiver that answers 200 (or holds the request open while `hang` is set) and counts the connections open at
 * once: what a receiver sees is what the tests check, not the server's own bookkeeping.
 *
 * Delivery is at least once: a sender whose attempt timed out after the receiver had the body (a loaded machine)
 * sends it again, under the same id. The receiver deduplicates on that id, as the guide tells customers to.
 */
export interface Receiver {
  url: string;
  hang: boolean;
  /** Every AfroFX-Delivery id answered 200, in order, repeats included. */
  received: string[];
  /** The distinct ids, in the order each first arrived: what a receiver that deduplicates processes. */
  delivered: string[];
  /** Requests whose AfroFX-Delivery header differed from the body's id (never, if the id is stable). */
  idMismatches: number;
  mostAtOnce: number;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  let atOnce = 0;
  const holding: ServerResponse[] = [];
  const receiver: Receiver = {
    url: '',
    hang: false,
    received: [],
    delivered: [],
    idMismatches: 0,
    mostAtOnce: 0,
    close: async () => {},
  };
  const server = createServer((req: IncomingMessage, res) => {
    atOnce += 1;
    receiver.mostAtOnce = Math.max(receiver.mostAtOnce, atOnce);
    whenGone(req, res, () => (atOnce -= 1));
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    if (receiver.hang) return void holding.push(res);
    // A short wait keeps the request open long enough for a second one, if one were sent, to overlap it.
    req.on('end', () =>
      setTimeout(() => {
        const id = String(req.headers['afrofx-delivery']);
        if ((JSON.parse(body) as { id?: string }).id !== id) receiver.idMismatches += 1;
        receiver.received.push(id);
        if (!receiver.delivered.includes(id)) receiver.delivered.push(id);
        res.end('ok');
      }, 15),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  receiver.close = async () => {
    holding.forEach((res) => res.destroy());
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return receiver;
}

/** An app of the developer's account on a plan, and its console calls. */
async function appOnPlan(on: TestApp, owner: Developer) {
  const call = (url: string, payload?: object, method: 'POST' | 'GET' = 'POST') =>
    on.app.inject({
      method,
      url: `/v1/${url}`,
      payload,
      headers: { authorization: `Bearer ${owner.token}` },
    });
  const appId = await on.newApp(owner, 'Webhook receiver');
  await on.runtime.database.db.insert(subscriptions).values({
    appId,
    planName: 'Test plan',
    status: 'active',
    requestLimit: 1000,
    startsAt: new Date(Date.now() - 86_400_000),
    expireAt: new Date(Date.now() + 86_400_000),
  });
  const register = async (url: string) => {
    const created = await call(`account/webhooks/${appId}`, { url, events: ['rate.updated'] });
    expect(created.statusCode).toBe(201);
    return created.json().data._id as string;
  };
  const sendTests = async (endpointId: string, n: number) => {
    for (let i = 0; i < n; i++)
      expect((await call(`account/webhooks/${appId}/${endpointId}/test`)).statusCode).toBe(202);
  };
  const endpoint = async (endpointId: string) => {
    const list = (await call(`account/webhooks/${appId}`, undefined, 'GET')).json().data as Array<{
      _id: string;
      state: string;
      parkedAt: string | null;
      parkedReason: string | null;
      retryAt: string | null;
    }>;
    return list.find((e) => e._id === endpointId)!;
  };
  const deliveryRows = (endpointId: string) =>
    on.runtime.database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpointId));
  return { call, appId, register, sendTests, endpoint, deliveryRows };
}

/** A developer with an app on a plan, its console calls, and `anotherApp` for a further app of the same account. */
export async function ownerOfAppOnPlan(on: TestApp, tag: string, subnet: number) {
  const owner = await developerFactory(() => on, tag, subnet)();
  return { ...(await appOnPlan(on, owner)), anotherApp: () => appOnPlan(on, owner) };
}

// The paid answer's cost in promises: the latest table, with its key known and its quota counted in this process or
// joining the event-loop turn's Redis call, makes at most 2 promises of its own beyond what the same requests to a
// route that only sends bytes make (a request through Fastify's inject makes some). A promise is a microtask and an
// allocation on every paid call; they were fourteen. With Redis the turn's one script call makes a few more, shared
// by the calls of the turn.
import { createHook } from 'node:async_hooks';
import Fastify from 'fastify';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { paidClient } from './support/paid-api';
import { createTestApp, type TestApp } from './support/test-app';

/** A turn's worth of calls at a time. */
const AT_ONCE = 25;

/**
 * Promises made per call while `AT_ONCE` calls, sent in one turn, are answered; the median of `rounds` rounds.
 * The calls are made with callbacks, so the count is the server's and inject's alone.
 */
async function promisesPerCall(
  app: FastifyInstance,
  request: InjectOptions,
  rounds: number,
): Promise<number> {
  let made = 0;
  const hook = createHook({
    init(_id, type) {
      if (type === 'PROMISE') made++;
    },
  });
  const perCall: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const statuses = await new Promise<number[]>((resolve, reject) => {
      const answered: number[] = [];
      made = 0;
      hook.enable();
      for (let i = 0; i < AT_ONCE; i++)
        app.inject(request, (err, res) => {
          if (err) return reject(err);
          answered.push(res!.statusCode);
          if (answered.length < AT_ONCE) return;
          hook.disable();
          perCall.push(made / AT_ONCE);
          resolve(answered);
        });
    });
    expect(statuses.every((status) => status === 200)).toBe(true);
  }
  perCall.sort((a, b) => a - b);
  return perCall[Math.floor(rounds / 2)]!;
}

let bare: FastifyInstance;
let t: TestApp;
beforeAll(async () => {
  bare = Fastify();
  bare.get('/v1/rates', (_request, reply) => void reply.type('application/json').send('{"data":[]}'));
  await bare.ready();
  // One key sends far more than a customer's burst allows, as the bench's does.
  t = await createTestApp({ API_BURST_PER_SECOND: '100000' });
  await t.createRate({ market: 'bank', asset: 'dollar', base: 'naira', buy: 1450, sell: 1470 });
});
afterAll(async () => {
  await bare.close();
  await t.close();
});

it('makes at most 2 promises of its own for a counted answer of the latest table', async () => {
  const client = await paidClient(t, { limit: 1_000_000 });
  const paid = { method: 'GET', url: '/v1/rates', headers: client.headers } as const;
  // The key looked up and the snapshot loaded once, as on a busy server.
  expect((await t.app.inject(paid)).statusCode).toBe(200);

  const baseline = await promisesPerCall(bare, { method: 'GET', url: '/v1/rates' }, 9);
  const made = await promisesPerCall(t.app, paid, 9);
  expect(made - baseline).toBeLessThanOrEqual(2);
});

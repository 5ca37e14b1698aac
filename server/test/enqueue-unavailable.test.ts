// Enqueueing a job while Redis is unreachable: the action answers 503 at once with a message, keeps nothing
// half-done, and the same action retried once Redis is back does the work (nothing accepted is dropped).
import { count } from 'drizzle-orm';
import { rateMailings } from '../src/db/schema';
import { startFaultProxy, type FaultProxy } from './support/fault-proxy';
import { createTestApp, eventually, redisAvailable, type TestApp } from './support/test-app';

const UNAVAILABLE = 'This could not be queued right now. Nothing was done; please try again in a minute.';

// Needs a Redis server (REDIS_URL): without Redis jobs are rows of the database, stored with the rest.
const describeWithRedis = redisAvailable ? describe : describe.skip;

describeWithRedis('an action that enqueues a job while Redis is away', () => {
  let proxy: FaultProxy;
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    const { hostname, port } = new URL(process.env.REDIS_URL!);
    proxy = await startFaultProxy(hostname, Number(port || 6379));
    t = await createTestApp({ REDIS_URL: proxy.url(process.env.REDIS_URL!) });
    await eventually(() => t.runtime.queue.ping());
    token = await t.adminToken();
  });
  afterEach(() => proxy.restore());
  afterAll(async () => {
    await t.close();
    await proxy.close();
  });

  const sendRatesMail = () =>
    t.app.inject({
      method: 'POST',
      url: '/v1/admin/send_rate_to_mail',
      headers: { authorization: `Bearer ${token}` },
    });
  const mailings = async () => (await t.runtime.database.db.select({ n: count() }).from(rateMailings))[0]!.n;

  it('answers 503 to Send Rates Mail and keeps no mailing, then sends it when retried', async () => {
    proxy.cut();
    const refused = await sendRatesMail();
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toMatchObject({ message: UNAVAILABLE });
    expect(await mailings()).toBe(0);

    proxy.restore();
    await eventually(async () => expect((await sendRatesMail()).statusCode).toBe(202));
    expect(await mailings()).toBe(1);
  });

  it('answers 503 to a subscription while the connection is stalled, and mails the link when retried', async () => {
    proxy.stall();
    const subscribe = () =>
      t.app.inject({
        method: 'POST',
        url: '/v1/user/create_email_sub',
        payload: { email: 'retry@example.com' },
      });
    const refused = await subscribe();
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toMatchObject({ message: UNAVAILABLE });

    proxy.restore();
    await eventually(async () => expect((await subscribe()).statusCode).toBeLessThan(300));
    await eventually(async () => expect((await t.mailsTo('retry@example.com')).length).toBeGreaterThan(0));
  });
});

// The Redis quota counts each request exactly once when a take times out while Redis stalls (the
// fallback counted it in PostgreSQL; the stalled call then ran in Redis too), and a counter whose name holds another
// type of value is replaced, so the process goes back to Redis instead of staying on PostgreSQL until someone repairs
// it; a hand-back of the counts made in PostgreSQL during an outage is applied once, even sent twice, and adds only
// what a counter restarted from the durable count does not hold already. Needs a Redis server (REDIS_URL); the stall
// goes through a TCP proxy in front of it.
import { randomUUID } from 'node:crypto';
import IORedis from 'ioredis';
import { RECONCILE_SCRIPT } from '../src/modules/paid-api/quota-store/redis/scripts';
import { startFaultProxy, type FaultProxy } from './support/fault-proxy';
import { paidClient, subscriptionRow, type PaidClient } from './support/paid-api';
import { createTestApp, eventually, redisAvailable, type TestApp } from './support/test-app';

const describeWithRedis = redisAvailable ? describe : describe.skip;

const rates = (t: TestApp, client: PaidClient, n: number) =>
  Promise.all(
    Array.from({ length: n }, () =>
      t.app.inject({ method: 'GET', url: '/v1/rates', headers: client.headers }),
    ),
  ).then((responses) => responses.map((r) => r.statusCode));

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

describeWithRedis('the Redis quota counts each request once', () => {
  let proxy: FaultProxy;
  let t: TestApp;
  let redis: IORedis;
  beforeAll(async () => {
    const url = new URL(process.env.REDIS_URL!);
    proxy = await startFaultProxy(url.hostname, Number(url.port || 6379));
    t = await createTestApp({
      REQUEST_LOG_FLUSH_MS: '50',
      REDIS_URL: proxy.url(process.env.REDIS_URL!),
      API_BURST_PER_SECOND: '100000',
    });
    redis = new IORedis(process.env.REDIS_URL!);
  });
  afterAll(async () => {
    proxy.restore();
    redis.disconnect();
    await t.close();
    await proxy.close();
  });

  /** The monthly counter of a subscription, as Redis holds it. */
  async function counterKey(subscriptionId: string): Promise<string> {
    const [key] = await redis.keys(`${t.runtime.keyPrefix}:quota:${subscriptionId}:*`);
    return key!;
  }

  it('does not count twice a request whose take timed out while Redis stalled and ran when the stall ended', async () => {
    // A month far from spent: the quota never decides here, only the counting.
    const client = await paidClient(t, { limit: 10_000, processed: 0 });
    let served = count(await rates(t, client, 10), 200);
    expect(served).toBe(10);
    // Counting in Redis before the stall (on a busy machine the first requests may come while the connection is
    // still opening: those are counted in PostgreSQL and handed back first).
    const key = await eventually(async () => {
      served += count(await rates(t, client, 1), 200);
      const found = await counterKey(client.subscriptionId!);
      expect(Number(await redis.get(found))).toBe(served);
      return found;
    });
    proxy.stall();
    let during: number[];
    try {
      // Each take waits its timeout, then is counted in PostgreSQL; the call stays held in the proxy.
      during = await rates(t, client, 20);
    } finally {
      // The held bytes reach Redis now: the stalled call counts those 20 takes there as well.
      proxy.restore();
    }
    expect(count(during, 200)).toBe(20);
    served += 20;
    // Once this process is back on Redis, its counter holds every request served once (not the 20 twice) ...
    await eventually(async () => {
      served += count(await rates(t, client, 1), 200);
      expect(Number(await redis.get(key))).toBe(served);
    });
    // ... and so does the durable count the app is charged by.
    await eventually(async () =>
      expect((await subscriptionRow(t, client.subscriptionId!)).processedRequests).toBe(served),
    );
  });

  it('replaces a counter holding another type of value and goes back to counting in Redis', async () => {
    const client = await paidClient(t, { limit: 100, processed: 0 });
    expect(count(await rates(t, client, 5), 200)).toBe(5);
    const key = await counterKey(client.subscriptionId!);
    await redis.del(key);
    await redis.hset(key, 'not', 'a counter');

    // Served all the same (counted in PostgreSQL meanwhile) ...
    /** The counter, or NaN while it is not a number. */
    const counter = async () => ((await redis.type(key)) === 'string' ? Number(await redis.get(key)) : NaN);
    let served = 5 + count(await rates(t, client, 5), 200);
    expect(served).toBe(10);
    // ... and soon counted in Redis again: a batch of requests moves the counter, a number again, by its size.
    await eventually(async () => {
      const before = await counter();
      const statuses = await rates(t, client, 5);
      served += count(statuses, 200);
      expect(statuses).toEqual(Array(5).fill(200));
      expect((await counter()) - before).toBe(5);
    });
    // Every request served counted once, in Redis and in PostgreSQL.
    expect(await counter()).toBe(served);
    await eventually(async () =>
      expect((await subscriptionRow(t, client.subscriptionId!)).processedRequests).toBe(served),
    );
  });

  it('applies a hand-back of outage counts once, and answers one sent again how it was applied the first time', async () => {
    // The hand-back's answer can be lost (a timeout on a busy machine); the process sends it again under its id and
    // must take the same branch as the first send, or the requests counted since the durable count was read are
    // dropped (the first send restarted the counter from that count) or added twice.
    const prefix = `test:${randomUUID()}`;
    const month = 30 * 86_400_000;
    // The durable count is read at count change 7 in each hand-back; `changes` are the count changes of the requests
    // a process counted (and, negative, gave back) in PostgreSQL.
    const handBack = (counter: string, id: string, outage: number, durable: number, changes: number[] = []) =>
      redis.eval(
        RECONCILE_SCRIPT,
        4,
        `${prefix}:${counter}`,
        `${prefix}:marker`,
        `${prefix}:hand-back:${id}`,
        `${prefix}:restart:${counter}`,
        outage,
        durable,
        month,
        60_000,
        changes.join(','),
        7,
      );
    const counter = async (name: string) => Number(await redis.get(`${prefix}:${name}`));
    try {
      // A counter lost with Redis's data restarts from the durable count, which holds the outage's requests.
      expect(await handBack('lost', 'first', 5, 40)).toBe(2);
      expect(await counter('lost')).toBe(40);
      expect(await handBack('lost', 'first', 5, 40)).toBe(2);
      expect(await counter('lost')).toBe(40);
      // A counter that survived gets the outage's requests added, once.
      await redis.set(`${prefix}:kept`, 10);
      expect(await handBack('kept', 'second', 3, 99)).toBe(1);
      expect(await counter('kept')).toBe(13);
      expect(await handBack('kept', 'second', 3, 99)).toBe(1);
      expect(await counter('kept')).toBe(13);
      // Requests refunded in PostgreSQL while a hand-back was on its way come off the counter with the next one.
      expect(await handBack('kept', 'third', -2, 0)).toBe(1);
      expect(await counter('kept')).toBe(11);
      // A hand-back's record lasts as long as the counter, not an hour: a late resend still finds it.
      expect(await redis.pttl(`${prefix}:hand-back:first`)).toBeGreaterThan(month - 60_000);
      // Redis lost its data while two processes counted in PostgreSQL: the first one back restarted the counter from
      // the durable count (40, its own 5 requests and the other's, read at change 7), so the second adds only what
      // PostgreSQL counted after that (its requests made changes 5, 7, 8 and 10).
      expect(await handBack('lost', 'other process', 4, 43, [5, 7, 8, 10])).toBe(1);
      expect(await counter('lost')).toBe(42);
      // A request given back before the read is in the durable count as much as the request it gives back, whatever
      // counts were reached meanwhile: the other process counted one (change 3), the first counted one (4), the
      // other gave its own back (6), so the count read at 7 is right and nothing changes. (Judged by the counts
      // reached, the request given back reached a count no higher than the read, and the counter lost one.)
      expect(await handBack('lost', 'given back before', 0, 43, [3, -6])).toBe(1);
      expect(await counter('lost')).toBe(42);
      // One given back after the read comes off.
      expect(await handBack('lost', 'given back after', -1, 43, [-9])).toBe(1);
      expect(await counter('lost')).toBe(41);
      // A long outage lists its changes in one argument: 200,000 of them (changes 1 to 200,000), of which the first
      // 7 are in the restart.
      const long = Array.from({ length: 200_000 }, (_, i) => i + 1);
      expect(await handBack('lost', 'long outage', long.length, 0, long)).toBe(1);
      expect(await counter('lost')).toBe(41 + long.length - 7);
    } finally {
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length > 0) await redis.del(...keys);
    }
  });
});

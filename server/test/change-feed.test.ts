// The change feed with Redis in trouble: a publishing request never hangs, local caches still hear of the change,
// and a process that may have missed messages while Redis was away is told to start its caches over.
import { randomBytes } from 'node:crypto';
import { createChangeFeed, type Change, type ChangeFeed } from '../src/change-feed';
import { startFaultProxy, type FaultProxy } from './support/fault-proxy';
import { eventually, redisAvailable } from './support/test-app';

// Needs a Redis server (REDIS_URL): without one the feed is in-process only and has nothing to lose.
const describeWithRedis = redisAvailable ? describe : describe.skip;

describeWithRedis('createChangeFeed while Redis is away', () => {
  const redisUrl = process.env.REDIS_URL!;
  const channel = `afrofx-test-changes-${randomBytes(6).toString('hex')}`;
  let proxy: FaultProxy;
  const feeds: ChangeFeed[] = [];
  const open = (url: string) => {
    const feed = createChangeFeed({ redisUrl: url, channel });
    const heard: Change[] = [];
    feed.subscribe((change) => heard.push(change));
    feeds.push(feed);
    return { feed, heard };
  };

  beforeAll(async () => {
    const { hostname, port } = new URL(redisUrl);
    proxy = await startFaultProxy(hostname, Number(port || 6379));
  });
  afterEach(async () => {
    proxy.restore();
    await Promise.all(feeds.splice(0).map((feed) => feed.close()));
  });
  afterAll(() => proxy.close());

  it('publishes to this process and returns while the connection is stalled', async () => {
    const { feed, heard } = open(proxy.url(redisUrl));
    const listener = open(redisUrl);
    // Connected both ways: a change goes across.
    await eventually(async () => {
      await feed.publish({ kind: 'rates' });
      expect(listener.heard).toContainEqual({ kind: 'rates' });
    });
    proxy.stall();
    await feed.publish({ kind: 'app', appId: 'a1' });
    expect(heard).toContainEqual({ kind: 'app', appId: 'a1' });
  });

  it('tells a process whose subscription dropped to resync once it is back', async () => {
    const cutOff = open(proxy.url(redisUrl));
    const publisher = open(redisUrl);
    await eventually(async () => {
      await publisher.feed.publish({ kind: 'rates' });
      expect(cutOff.heard).toContainEqual({ kind: 'rates' });
    });
    proxy.cut();
    await publisher.feed.publish({ kind: 'account', accountId: 'missed' });
    proxy.restore();
    await eventually(async () => expect(cutOff.heard).toContainEqual({ kind: 'resync' }));
    expect(cutOff.heard).not.toContainEqual({ kind: 'account', accountId: 'missed' });
  });

  it('tells the other processes to resync when it could not publish a change', async () => {
    const cutOff = open(proxy.url(redisUrl));
    const listener = open(redisUrl);
    await eventually(async () => {
      await cutOff.feed.publish({ kind: 'rates' });
      expect(listener.heard).toContainEqual({ kind: 'rates' });
    });
    proxy.cut();
    await cutOff.feed.publish({ kind: 'app', appId: 'unheard' });
    expect(cutOff.heard).toContainEqual({ kind: 'app', appId: 'unheard' });
    proxy.restore();
    await eventually(async () => expect(listener.heard).toContainEqual({ kind: 'resync' }));
  });
});

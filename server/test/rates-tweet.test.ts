// The rate tweet posted through the real twitter-api-v2 client to a local fake of the Twitter/X v2 API (the edge of
// the world), on either queue driver.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { desc } from 'drizzle-orm';
import { rateTweets } from '../src/db/schema';
import { ratesTweetJob } from '../src/jobs/rates-tweet.job';
import { createTestApp, eventually, type TestApp } from './support/test-app';

interface FakeTwitter {
  url: string;
  /** Every POST /2/tweets received, with the status answered. */
  requests: Array<{ text: string; authorization: string; status: number }>;
  /** Statuses for the next requests; 201 with a new tweet id once they run out. */
  failNext: number[];
  close(): Promise<void>;
}

async function startFakeTwitter(): Promise<FakeTwitter> {
  let nextId = 1790000000000000000n;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      if (req.method !== 'POST' || req.url !== '/2/tweets') {
        res.statusCode = 404;
        res.end(JSON.stringify({ title: 'Not Found', status: 404 }));
        return;
      }
      const { text } = JSON.parse(body) as { text: string };
      const status = fake.failNext.shift() ?? 201;
      fake.requests.push({ text, authorization: req.headers.authorization ?? '', status });
      res.statusCode = status;
      if (status !== 201) {
        res.end(JSON.stringify({ title: 'Service Unavailable', detail: 'Over capacity', status }));
        return;
      }
      nextId += 1n;
      res.end(JSON.stringify({ data: { id: String(nextId), text } }));
    });
  });
  const fake: FakeTwitter = {
    url: '',
    requests: [],
    failNext: [],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

let twitter: FakeTwitter;
let t: TestApp;
beforeAll(async () => {
  twitter = await startFakeTwitter();
  t = await createTestApp({
    TWITTER_APP_KEY: 'app-key',
    TWITTER_APP_SECRET: 'app-secret',
    TWITTER_ACCESS_TOKEN: 'access-token',
    TWITTER_ACCESS_SECRET: 'access-secret',
    TWITTER_API_URL: twitter.url,
  });
  for (const [asset, buy, sell] of [
    ['dollar', 1500, 1520.5],
    ['british_pounds', 1990, 2010],
    ['euro', 1610.25, 1640],
    ['canadian_dollar', 1080, 1100],
  ] as const) {
    await t.createRate({ market: 'black_market_cash', base: 'naira', asset, buy, sell });
  }
});
afterAll(async () => {
  await t.close();
  await twitter.close();
});

async function sendTweet() {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/admin/send_tweet_rate',
    headers: await t.adminHeaders(),
  });
  expect(res.statusCode).toBe(202);
  expect(res.json().message).toBe('The rates tweet is on its way.');
  const [tweet] = await t.runtime.database.db
    .select()
    .from(rateTweets)
    .orderBy(desc(rateTweets.createdAt))
    .limit(1);
  return tweet!;
}

async function postedTweet(id: string) {
  return eventually(async () => {
    const tweet = await t.runtime.services.ratesTweet.findTweet(id);
    expect(tweet?.tweetId).toBeTruthy();
    return tweet!;
  });
}

const jobContext = () => ({
  config: t.config,
  services: t.runtime.services,
  mailer: t.runtime.mailer,
  log: t.runtime.log,
});

describe('the rates tweet job with Twitter credentials', () => {
  it("posts today's headline rates once, under 280 characters, signed with the app's OAuth keys", async () => {
    const before = twitter.requests.length;
    const tweet = await sendTweet();
    const posted = await postedTweet(tweet.id);

    const sent = twitter.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.text).toBe(tweet.text);
    expect(sent[0]!.text.length).toBeLessThanOrEqual(280);
    expect(sent[0]!.text).toContain('USD: buy ₦1,500.00 / sell ₦1,520.50');
    expect(sent[0]!.text).toContain('CAD: buy ₦1,080.00 / sell ₦1,100.00');
    expect(sent[0]!.authorization).toMatch(/^OAuth .*oauth_consumer_key="app-key"/);
    expect(sent[0]!.authorization).toContain('oauth_token="access-token"');
    expect(posted.tweetId).toMatch(/^\d+$/);

    // The queue delivers at least once: running the job again after the post went through posts nothing.
    await ratesTweetJob(jobContext(), { tweetId: tweet.id });
    expect(twitter.requests).toHaveLength(before + 1);
  });

  it('fails on a 5xx from Twitter, so the queue retries, and posts once when Twitter answers again', async () => {
    const before = twitter.requests.length;
    twitter.failNext = [503, 500];
    const tweet = await sendTweet();
    const posted = await postedTweet(tweet.id);

    const sent = twitter.requests.slice(before);
    expect(sent.map((r) => r.status)).toEqual([503, 500, 201]);
    expect(new Set(sent.map((r) => r.text))).toEqual(new Set([tweet.text]));
    expect(posted.tweetId).toMatch(/^\d+$/);
  });

  it('throws on a 5xx and leaves the tweet unposted', async () => {
    const tweet = await sendTweet();
    await postedTweet(tweet.id);
    // A tweet composed but not yet posted, run by hand against a failing API.
    const [row] = await t.runtime.database.db.insert(rateTweets).values({ text: tweet.text }).returning();
    const before = twitter.requests.length;
    twitter.failNext = [503];
    await expect(ratesTweetJob(jobContext(), { tweetId: row!.id })).rejects.toThrow(/503/);
    expect((await t.runtime.services.ratesTweet.findTweet(row!.id))!.tweetId).toBeNull();

    await ratesTweetJob(jobContext(), { tweetId: row!.id });
    expect((await t.runtime.services.ratesTweet.findTweet(row!.id))!.tweetId).toMatch(/^\d+$/);
    expect(twitter.requests.slice(before).map((r) => r.status)).toEqual([503, 201]);
  });
});

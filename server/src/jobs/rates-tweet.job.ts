import { Agent } from 'node:http';
import { TwitterApi, type TweetV2PostTweetResult } from 'twitter-api-v2';
import type { Config, TwitterCredentials } from '../config';
import type { JobContext, JobCounts } from './job-context';
import type { JobData } from '../queue/job-types';

/** POST /2/tweets, as client.v2.tweet() sends it, at the configured API's address. */
async function postTweet(credentials: TwitterCredentials, apiUrl: Config['twitterApiUrl'], text: string) {
  // twitter-api-v2 sends through https.request, which takes a plain-HTTP URL (a local fake) only with an HTTP agent.
  const settings = apiUrl.startsWith('http:') ? { httpAgent: new Agent() } : {};
  const client = new TwitterApi(credentials, settings);
  return client.v2.post<TweetV2PostTweetResult>('tweets', { text }, { prefix: `${apiUrl}/2/` });
}

export async function ratesTweetJob(
  ctx: JobContext<'ratesTweet'>,
  { tweetId }: JobData<'rates-tweet'>,
): Promise<JobCounts | void> {
  const tweet = await ctx.services.ratesTweet.findTweet(tweetId);
  // Posted already: a retry after the post went through must not post it twice.
  if (!tweet || tweet.tweetId) return;
  if (!ctx.config.twitter) {
    // DESIGN §1: without credentials the job records the text it would have posted (already stored).
    ctx.log.info({ tweet: tweet.text }, 'no Twitter credentials: rate tweet recorded, not posted');
    ctx.warn?.('Recorded, not posted: no Twitter credentials are configured.');
    return { 'not posted': 1 };
  }
  // A refusal or a 5xx throws, so the queue retries the job with backoff.
  const posted = await postTweet(ctx.config.twitter, ctx.config.twitterApiUrl, tweet.text);
  await ctx.services.ratesTweet.markTweetPosted(tweetId, posted.data.id);
  return { posted: 1 };
}

import { TwitterApi } from 'twitter-api-v2';
import type { JobContext } from './job-context';
import type { JobData } from './job-types';

export async function ratesTweetJob(ctx: JobContext, { tweetId }: JobData<'rates-tweet'>): Promise<void> {
  const tweet = await ctx.services.rates.findTweet(tweetId);
  if (!tweet || tweet.tweetId) return;
  if (!ctx.config.twitter) {
    // DESIGN §1: without credentials the job records the text it would have posted (already stored).
    ctx.log.info({ tweet: tweet.text }, 'no Twitter credentials: rate tweet recorded, not posted');
    return;
  }
  const client = new TwitterApi(ctx.config.twitter);
  const posted = await client.v2.tweet(tweet.text);
  await ctx.services.rates.markTweetPosted(tweetId, posted.data.id);
}

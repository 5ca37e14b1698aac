// The daily naira cash-market tweet: composed and recorded here, posted by the rates-tweet job.
import { eq } from 'drizzle-orm';
import {
  ASSET_DISPLAY,
  MARKET_LABELS,
  baseSymbol,
  formatNumber,
  type Market,
  type Rate,
} from '@afrofx/shared';
import type { Database } from '../../db/client';
import { rateTweets } from '../../db/schema';
import type { Enqueue } from '../../queue/enqueue';

export function createRatesTweetService(
  db: Database,
  enqueue: Enqueue,
  rates: { latestForMarket(market: Market): Promise<Rate[]> },
) {
  return {
    /** Composes today's naira cash-market tweet and records it; the job posts it. */
    async tweetLatest(): Promise<void> {
      const latest = await rates.latestForMarket('black_market_cash');
      const naira = latest.filter((r) => r.base === 'naira');
      const lines = naira.map(
        (r) =>
          `${ASSET_DISPLAY[r.asset].flag} ${ASSET_DISPLAY[r.asset].code}: buy ${baseSymbol(r.base)}${formatNumber(r.buy)} / sell ${baseSymbol(r.base)}${formatNumber(r.sell)}`,
      );
      const text =
        naira.length > 0
          ? `AfroFX ${MARKET_LABELS.black_market_cash} rates (NGN)\n${lines.join('\n')}\n#naira #forex`
          : 'AfroFX: rates have not been updated today.';
      const [row] = await db
        .insert(rateTweets)
        .values({ text: text.slice(0, 280) })
        .returning({ id: rateTweets.id });
      await enqueue('rates-tweet', { tweetId: row!.id }, { jobId: row!.id });
    },

    async findTweet(id: string) {
      const [row] = await db.select().from(rateTweets).where(eq(rateTweets.id, id));
      return row;
    },

    async markTweetPosted(id: string, tweetId: string): Promise<void> {
      await db.update(rateTweets).set({ tweetId }).where(eq(rateTweets.id, id));
    },
  };
}

export type RatesTweetService = ReturnType<typeof createRatesTweetService>;

import { Readable, pipeline } from 'node:stream';
import { and, count, desc, eq, getTableColumns, gte, lt, sql } from 'drizzle-orm';
import { stringify } from 'csv-stringify';
import { ASSET_DISPLAY, MARKET_LABELS, baseSymbol, formatNumber } from '@afrofx/shared';
import type { Asset, Base, Market, Rate, RateHistory, RateInput } from '@afrofx/shared';
import type { ChangeFeed } from '../../change-feed';
import type { Database } from '../../db/client';
import { rates, rateTweets } from '../../db/schema';
import { notFound } from '../../errors';
import type { Page } from '../../http';
import type { Enqueue } from '../../jobs/enqueue';
import type { WebhooksService } from '../webhooks/webhooks.service';

type RateRow = typeof rates.$inferSelect;

export const toRate = (row: RateRow): Rate => ({
  _id: row.id,
  market: row.market,
  asset: row.asset,
  base: row.base,
  buy: row.buy,
  sell: row.sell,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

const EXPORT_BATCH = 1000;

export function createRatesService(
  db: Database,
  enqueue: Enqueue,
  changes: ChangeFeed,
  webhooks: Pick<WebhooksService, 'recordRateEvents' | 'dispatch'>,
) {
  return {
    /** DESIGN §4: per base and asset, the latest record of the market. */
    async latestForMarket(market: Market): Promise<Rate[]> {
      const rows = await db
        .selectDistinctOn([rates.base, rates.asset])
        .from(rates)
        .where(eq(rates.market, market))
        .orderBy(rates.base, rates.asset, desc(rates.createdAt), desc(rates.id));
      return rows.map(toRate);
    },

    async latestForAllMarkets(): Promise<Rate[]> {
      const rows = await db
        .selectDistinctOn([rates.market, rates.base, rates.asset])
        .from(rates)
        .orderBy(rates.market, rates.base, rates.asset, desc(rates.createdAt), desc(rates.id));
      return rows.map(toRate);
    },

    async list(page: Page): Promise<{ rows: Rate[]; count: number }> {
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(rates)
          .orderBy(desc(rates.createdAt), desc(rates.id))
          .limit(page.limit)
          .offset(page.offset),
        db.select({ value: count() }).from(rates),
      ]);
      return { rows: rows.map(toRate), count: total?.value ?? 0 };
    },

    /** The rate and the webhook deliveries it causes are stored together: an accepted rate loses none. */
    async create(input: RateInput): Promise<Rate> {
      const { rate, deliveries } = await db.transaction(async (tx) => {
        const [row] = await tx.insert(rates).values(input).returning();
        const rate = toRate(row!);
        return { rate, deliveries: await webhooks.recordRateEvents(tx, rate) };
      });
      await changes.publish({ kind: 'rates' });
      await webhooks.dispatch(deliveries);
      return rate;
    },

    async update(id: string, input: RateInput): Promise<Rate> {
      const [row] = await db
        .update(rates)
        .set({ ...input, updatedAt: new Date() })
        .where(eq(rates.id, id))
        .returning();
      if (!row) throw notFound('Rate not found.');
      await changes.publish({ kind: 'rates' });
      return toRate(row);
    },

    async remove(id: string): Promise<void> {
      const deleted = await db.delete(rates).where(eq(rates.id, id)).returning({ id: rates.id });
      if (deleted.length === 0) throw notFound('Rate not found.');
      await changes.publish({ kind: 'rates' });
    },

    /** One value per UTC day (that day's last record) for a pair and market, from..to inclusive. */
    async history(
      market: Market,
      base: Base,
      asset: Asset,
      from: string,
      to: string,
    ): Promise<RateHistory['points']> {
      const day = sql<string>`to_char(${rates.createdAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;
      const rows = await db
        .selectDistinctOn([day], { day, buy: rates.buy, sell: rates.sell })
        .from(rates)
        .where(
          and(
            eq(rates.market, market),
            eq(rates.base, base),
            eq(rates.asset, asset),
            gte(rates.createdAt, new Date(`${from}T00:00:00Z`)),
            lt(rates.createdAt, new Date(new Date(`${to}T00:00:00Z`).getTime() + 86_400_000)),
          ),
        )
        .orderBy(day, desc(rates.createdAt), desc(rates.id));
      return rows;
    },

    /**
     * Every rate that exists when the export starts, oldest first, as a CSV stream for the mail attachment. Rows are
     * read in keyset batches only as the mail takes them, so memory stays flat however many rates there are.
     */
    async exportCsv(): Promise<{ csv: Readable; rowCount: number }> {
      // The key is read as text: a JS Date keeps milliseconds and would repeat rows created in the same millisecond.
      const key = { at: sql<string>`${rates.createdAt}::text`, id: rates.id };
      const after = (k: { at: string; id: string }) =>
        sql`(${rates.createdAt}, ${rates.id}) > (${k.at}::timestamptz, ${k.id}::uuid)`;
      const upTo = (k: { at: string; id: string }) =>
        sql`(${rates.createdAt}, ${rates.id}) <= (${k.at}::timestamptz, ${k.id}::uuid)`;

      // Rates added while the export streams are left out, so the count in the mail matches the file.
      const [last] = await db.select(key).from(rates).orderBy(desc(rates.createdAt), desc(rates.id)).limit(1);
      const [total] = last ? await db.select({ value: count() }).from(rates).where(upTo(last)) : [];

      async function* rows() {
        if (!last) return;
        let from: { at: string; id: string } | undefined;
        for (;;) {
          const batch = await db
            .select({ ...getTableColumns(rates), key })
            .from(rates)
            .where(and(upTo(last), from && after(from)))
            .orderBy(rates.createdAt, rates.id)
            .limit(EXPORT_BATCH);
          for (const row of batch) {
            yield {
              ...row,
              createdAt: row.createdAt.toISOString(),
              updatedAt: row.updatedAt.toISOString(),
            };
          }
          if (batch.length < EXPORT_BATCH) return;
          from = batch.at(-1)!.key;
        }
      }

      const csv = stringify({
        header: true,
        columns: ['id', 'market', 'base', 'asset', 'buy', 'sell', 'createdAt', 'updatedAt'],
      });
      // A failed read destroys the CSV stream with its error, which fails the mail that reads it.
      pipeline(Readable.from(rows()), csv, () => {});
      return { csv, rowCount: total?.value ?? 0 };
    },

    requestExport(email: string): Promise<void> {
      return enqueue('rates-csv', { email });
    },

    /** Composes today's naira cash-market tweet and records it; the job posts it. */
    async tweetLatest(): Promise<void> {
      const latest = await this.latestForMarket('black_market_cash');
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

export type RatesService = ReturnType<typeof createRatesService>;

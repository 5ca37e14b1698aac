import { Readable, pipeline } from 'node:stream';
import { and, count, desc, eq, getTableColumns, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { stringify } from 'csv-stringify';
import {
  ASSET_DISPLAY,
  MARKET_LABELS,
  baseSymbol,
  describeQuote,
  formatNumber,
  formatUtcDate,
} from '@afrofx/shared';
import type {
  AdminRatesFilter,
  Asset,
  Base,
  CandleInterval,
  Market,
  Prices,
  Rate,
  RateCandle,
  RateHistoryPoint,
  RateInput,
} from '@afrofx/shared';
import type { ChangeFeed } from '../../change-feed';
import type { Database } from '../../db/client';
import { rates, rateTweets } from '../../db/schema';
import { badRequest, notFound } from '../../errors';
import type { Page } from '../../http';
import type { Enqueue } from '../../jobs/enqueue';
import { nextBucket } from './rate-range';
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

/** A pair's latest rate and its previous close: the last entry made before the UTC day of the latest one. */
export interface RateWithPreviousClose {
  rate: Rate;
  previousClose: Prices | null;
}

/** Each UTC day's last entry of one market for a pair. */
export interface DailyClose extends Prices {
  market: Market;
  day: string;
}

export interface RatePair {
  market: Market;
  base: Base;
  asset: Asset;
}

const ofPair = ({ market, base, asset }: RatePair) =>
  and(eq(rates.market, market), eq(rates.base, base), eq(rates.asset, asset));

/** Days of history, and buckets of candles, read per query of a streamed answer. */
/** The fat-finger guard: a buy above the sell is a typo unless the admin says the quote is inverted. */
function rateValues({ buy_above_sell: inverted, ...rate }: RateInput) {
  if (rate.buy > rate.sell && !inverted)
    throw badRequest(
      'The buy is above the sell. Check the prices, or send buy_above_sell: true if that is intended.',
    );
  return rate;
}

const WINDOW_DAYS = 31;
const TRUNCATE: Record<CandleInterval, string> = { day: 'day', week: 'week', month: 'month' };
const WINDOW_BUCKETS: Record<CandleInterval, number> = { day: 31, week: 8, month: 6 };

const shiftDays = (date: string, days: number) =>
  formatUtcDate(new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000));

/** from..to (inclusive days) cut into the UTC time windows that `step` gives, as half-open instants. */
function* windows(from: string, to: string, step: (start: string) => string) {
  const end = shiftDays(to, 1);
  for (let start = from; start < end;) {
    const next = step(start);
    const windowEnd = next < end ? next : end;
    yield { start: new Date(`${start}T00:00:00Z`), end: new Date(`${windowEnd}T00:00:00Z`) };
    start = windowEnd;
  }
}

type Operand = Parameters<typeof eq>[1];

/**
 * Entries of `earlier` that can be the previous close of `entry`: the same pair and market, made before the UTC day
 * `entry` was made on (the newest of them is the close).
 */
function madeBeforeDayOf(
  earlier: { market: AnyPgColumn; base: AnyPgColumn; asset: AnyPgColumn; createdAt: AnyPgColumn },
  entry: { market: Operand; base: Operand; asset: Operand; createdAt: SQL | AnyPgColumn },
) {
  return and(
    eq(earlier.market, entry.market),
    eq(earlier.base, entry.base),
    eq(earlier.asset, entry.asset),
    lt(earlier.createdAt, sql`date_trunc('day', ${entry.createdAt}, 'UTC')`),
  );
}

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

    /**
     * Latest rate per market × base × asset (one market when given), each with its previous close; with `before`,
     * the table as it stood then (entries made before it).
     */
    async latestWithPreviousClose(market?: Market, before?: Date): Promise<RateWithPreviousClose[]> {
      // Every market × base × asset the enums name, and each one's newest entry from rates_pair_created_idx: 48
      // index probes. A DISTINCT ON over the table read all of it (13,000 demo rows: 40 ms of the embedded
      // database's time on the API's own thread, once a second for the paid API's snapshot).
      const pairs = db
        .select({
          market: sql<Market>`pair_market`.as('pair_market'),
          base: sql<Base>`pair_base`.as('pair_base'),
          asset: sql<Asset>`pair_asset`.as('pair_asset'),
        })
        .from(
          sql`unnest(enum_range(NULL::market)) AS m(pair_market) CROSS JOIN unnest(enum_range(NULL::base)) AS b(pair_base) CROSS JOIN unnest(enum_range(NULL::asset)) AS a(pair_asset)`,
        )
        .where(market && sql`pair_market = ${market}`)
        .as('pairs');
      const latest = db
        .select()
        .from(rates)
        .where(
          and(
            eq(rates.market, pairs.market),
            eq(rates.base, pairs.base),
            eq(rates.asset, pairs.asset),
            before && lt(rates.createdAt, before),
          ),
        )
        .orderBy(desc(rates.createdAt), desc(rates.id))
        .limit(1)
        .as('latest');
      const earlier = alias(rates, 'earlier');
      const previous = db
        .select({ buy: earlier.buy, sell: earlier.sell })
        .from(earlier)
        .where(madeBeforeDayOf(earlier, latest))
        .orderBy(desc(earlier.createdAt), desc(earlier.id))
        .limit(1)
        .as('previous');
      const rows = await db
        .select({
          latest: {
            id: latest.id,
            market: latest.market,
            asset: latest.asset,
            base: latest.base,
            buy: latest.buy,
            sell: latest.sell,
            createdAt: latest.createdAt,
            updatedAt: latest.updatedAt,
          },
          previous: { buy: previous.buy, sell: previous.sell },
        })
        .from(pairs)
        .innerJoinLateral(latest, sql`true`)
        .leftJoinLateral(previous, sql`true`)
        .orderBy(latest.market, latest.base, latest.asset);
      return rows.map((row) => ({ rate: toRate(row.latest), previousClose: row.previous }));
    },

    /** Each UTC day's last entry for a pair in the given markets, on days from `fromDay` (YYYY-MM-DD) on. */
    async dailyCloses(base: Base, asset: Asset, markets: Market[], fromDay: string): Promise<DailyClose[]> {
      const day = sql<string>`to_char(${rates.createdAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;
      return db
        .selectDistinctOn([rates.market, day], {
          market: rates.market,
          day,
          buy: rates.buy,
          sell: rates.sell,
        })
        .from(rates)
        .where(
          and(
            inArray(rates.market, markets),
            eq(rates.base, base),
            eq(rates.asset, asset),
            gte(rates.createdAt, new Date(`${fromDay}T00:00:00Z`)),
          ),
        )
        .orderBy(rates.market, day, desc(rates.createdAt), desc(rates.id));
    },

    /**
     * Issue 25: the admin list, filtered by market, pair and UTC days (both ends included), newest first. A market
     * (and pair) filter walks rates_pair_created_idx, days or a pair alone rates_created_idx (EXPLAIN on 13,009 rows).
     */
    async list(page: Page, filter: AdminRatesFilter = {}): Promise<{ rows: Rate[]; count: number }> {
      if (filter.from && filter.to && filter.from > filter.to)
        throw badRequest('The from date must not be after the to date.');
      const where = and(
        filter.market ? eq(rates.market, filter.market) : undefined,
        filter.base ? eq(rates.base, filter.base) : undefined,
        filter.asset ? eq(rates.asset, filter.asset) : undefined,
        filter.from ? gte(rates.createdAt, new Date(`${filter.from}T00:00:00Z`)) : undefined,
        filter.to ? lt(rates.createdAt, new Date(`${shiftDays(filter.to, 1)}T00:00:00Z`)) : undefined,
      );
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(rates)
          .where(where)
          .orderBy(desc(rates.createdAt), desc(rates.id))
          .limit(page.limit)
          .offset(page.offset),
        db.select({ value: count() }).from(rates).where(where),
      ]);
      return { rows: rows.map(toRate), count: total?.value ?? 0 };
    },

    /** The rate and the webhook deliveries it causes are stored together: an accepted rate loses none. */
    async create(input: RateInput): Promise<Rate> {
      const values = rateValues(input);
      const { rate, deliveries } = await db.transaction(async (tx) => {
        const [row] = await tx.insert(rates).values(values).returning();
        const rate = toRate(row!);
        // Deliveries carry the rate as /v1/rates answers it: mid, spread and change against the previous close.
        const [previousClose] = await tx
          .select({ buy: rates.buy, sell: rates.sell })
          .from(rates)
          .where(madeBeforeDayOf(rates, { ...rate, createdAt: sql`${row!.createdAt}::timestamptz` }))
          .orderBy(desc(rates.createdAt), desc(rates.id))
          .limit(1);
        const quote = describeQuote(rate, previousClose ?? null);
        return { rate, deliveries: await webhooks.recordRateEvents(tx, quote) };
      });
      await changes.publish({ kind: 'rates' });
      await webhooks.dispatch(deliveries);
      return rate;
    },

    async update(id: string, input: RateInput): Promise<Rate> {
      const [row] = await db
        .update(rates)
        .set({ ...rateValues(input), updatedAt: new Date() })
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
    async history(pair: RatePair, from: string, to: string): Promise<RateHistoryPoint[]> {
      const points: RateHistoryPoint[] = [];
      for await (const batch of this.historyBatches(pair, from, to)) points.push(...batch);
      return points;
    },

    /**
     * The same points, read a window of days at a time as the caller takes them: an export streams at the pace of
     * its reader, holding one window in memory.
     */
    async *historyBatches(pair: RatePair, from: string, to: string): AsyncGenerator<RateHistoryPoint[]> {
      const day = sql<string>`to_char(${rates.createdAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;
      for (const window of windows(from, to, (start) => shiftDays(start, WINDOW_DAYS))) {
        yield db
          .selectDistinctOn([day], { day, buy: rates.buy, sell: rates.sell })
          .from(rates)
          .where(and(ofPair(pair), gte(rates.createdAt, window.start), lt(rates.createdAt, window.end)))
          .orderBy(day, desc(rates.createdAt), desc(rates.id));
      }
    },

    /** Candles of every entry of a pair and market per UTC bucket, from..to (whole buckets), oldest first. */
    async candles(pair: RatePair, interval: CandleInterval, from: string, to: string): Promise<RateCandle[]> {
      const candles: RateCandle[] = [];
      for await (const batch of this.candleBatches(pair, interval, from, to)) candles.push(...batch);
      return candles;
    },

    /** The candles a window of buckets at a time; buckets without entries are absent. */
    async *candleBatches(
      pair: RatePair,
      interval: CandleInterval,
      from: string,
      to: string,
    ): AsyncGenerator<RateCandle[]> {
      // A literal, not a parameter: GROUP BY must see the same expression as the select list. PostgreSQL's weeks
      // are ISO weeks, starting on Monday like the range's buckets.
      const start = sql<string>`to_char(date_trunc(${sql.raw(`'${TRUNCATE[interval]}'`)}, ${rates.createdAt} AT TIME ZONE 'UTC'), 'YYYY-MM-DD')`;
      // First and last by entry time, ties broken by id: the order the admin console lists them in.
      const first = (column: typeof rates.buy) =>
        sql<number>`(array_agg(${column} ORDER BY ${rates.createdAt}, ${rates.id}))[1]`.mapWith(Number);
      const last = (column: typeof rates.buy) =>
        sql<number>`(array_agg(${column} ORDER BY ${rates.createdAt} DESC, ${rates.id} DESC))[1]`.mapWith(
          Number,
        );
      const high = (column: typeof rates.buy) => sql<number>`max(${column})`.mapWith(Number);
      const low = (column: typeof rates.buy) => sql<number>`min(${column})`.mapWith(Number);
      const step = (windowStart: string) => {
        let next = windowStart;
        for (let i = 0; i < WINDOW_BUCKETS[interval]; i++) next = nextBucket(interval, next);
        return next;
      };
      for (const window of windows(from, to, step)) {
        yield db
          .select({
            start,
            buyOpen: first(rates.buy),
            buyHigh: high(rates.buy),
            buyLow: low(rates.buy),
            buyClose: last(rates.buy),
            sellOpen: first(rates.sell),
            sellHigh: high(rates.sell),
            sellLow: low(rates.sell),
            sellClose: last(rates.sell),
            entries: count(),
          })
          .from(rates)
          .where(and(ofPair(pair), gte(rates.createdAt, window.start), lt(rates.createdAt, window.end)))
          .groupBy(start)
          .orderBy(start);
      }
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

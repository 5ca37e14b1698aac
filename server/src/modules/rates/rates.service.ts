import { and, count, desc, eq, getViewSelectedFields, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { formatUtcDate } from '@afrofx/shared';
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
  RateRevisionsQuery,
  AdminRate,
} from '@afrofx/shared';
import type { Database } from '../../db/client';
// Every read goes through the served view: the newest revision of each record, withdrawn ones left out.
import { accounts, servedRates as rates } from '../../db/schema';
import { badRequest } from '../../errors';
import type { Page } from '../../http';
import { nextBucket } from '../../rate-range';
import { listRevisions } from './revision-list';

type RateRow = Pick<
  typeof rates.$inferSelect,
  | 'id'
  | 'market'
  | 'asset'
  | 'base'
  | 'buy'
  | 'sell'
  | 'createdAt'
  | 'updatedAt'
  | 'source'
  | 'publicationId'
  | 'revision'
>;

export const toRate = (row: RateRow): Rate => ({
  _id: row.id,
  market: row.market,
  asset: row.asset,
  base: row.base,
  buy: row.buy,
  sell: row.sell,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
  source: row.source,
  publishedAt: row.createdAt.toISOString(),
  publicationId: row.publicationId,
  revision: row.revision,
});

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
export function madeBeforeDayOf(
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

export function createRatesService(db: Database) {
  return {
    /** Corrections and withdrawals with both values, newest first. */
    revisions: (page: Page, filter: Omit<RateRevisionsQuery, 'page'>) => listRevisions(db, page, filter),

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
      // A derived table, not alias(): drizzle's alias of a view names a relation that does not exist.
      const earlier = db
        .select({
          market: rates.market,
          base: rates.base,
          asset: rates.asset,
          buy: rates.buy,
          sell: rates.sell,
          createdAt: rates.createdAt,
          id: rates.id,
        })
        .from(rates)
        .as('earlier');
      const previous = db
        .select({ buy: earlier.buy, sell: earlier.sell })
        .from(earlier)
        .where(madeBeforeDayOf(earlier as unknown as Parameters<typeof madeBeforeDayOf>[0], latest))
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
            source: latest.source,
            publicationId: latest.publicationId,
            revision: latest.revision,
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
     * The admin list, filtered by market, pair and UTC days (both ends included), newest first. A market
     * (and pair) filter walks rates_pair_created_idx, days or a pair alone rates_created_idx (EXPLAIN on 13,009 rows).
     */
    async list(page: Page, filter: AdminRatesFilter = {}): Promise<{ rows: AdminRate[]; count: number }> {
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
          .select({ rate: getViewSelectedFields(rates), publishedBy: accounts.email })
          .from(rates)
          .leftJoin(accounts, eq(accounts.id, rates.publishedBy))
          .where(where)
          .orderBy(desc(rates.createdAt), desc(rates.id))
          .limit(page.limit)
          .offset(page.offset),
        db.select({ value: count() }).from(rates).where(where),
      ]);
      return {
        rows: rows.map((row) => ({ ...toRate(row.rate), publishedBy: row.publishedBy })),
        count: total?.value ?? 0,
      };
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
  };
}

export type RatesService = ReturnType<typeof createRatesService>;

// The paid API's calls (DESIGN §5): their schemas and handlers. Metering (key, quota, request log) is the
// metering plugin's, registered around them by paid-api.ts; a handler charges once its answer exists.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type TSchema } from '@sinclair/typebox';
import {
  BASES,
  Conversion,
  ConvertQuery,
  Currencies,
  Envelope,
  formatUtcDate,
  ISO_CODES,
  MARKET_LABELS,
  MAX_CANDLE_DAYS,
  MAX_HISTORY_DAYS,
  OfficialRate,
  OfficialRatesQuery,
  PaidRates,
  Premium,
  PremiumQuery,
  RateHistory,
  RateHistoryQuery,
  RateOhlc,
  RateOhlcQuery,
  RatesQuery,
  RateRevision,
  RateRevisionsQuery,
  PagedEnvelope,
  Usage,
  type RateCandle,
} from '@afrofx/shared';
import { badRequest } from '../../errors';
import { ok, paged, pageOf } from '../../http';
import { candleRange, historyRange } from '../../rate-range';
import type { OfficialRatesService } from '../official-rates/official-rates.service';
import type { RatesService } from '../rates/rates.service';
import { ratesFilter, type PaidApiService } from './paid-api.service';
import type { RatesSnapshot, RatesSnapshotSource } from '../rates/rates-snapshot';
import { answerFormat, streamRows } from './row-streams';

export interface PaidApiRoutesOptions {
  service: PaidApiService;
  rates: RatesService;
  officialRates: OfficialRatesService;
  snapshot: RatesSnapshotSource;
  staleAfterHours: number;
}

const CANDLE_COLUMNS: Array<keyof RateCandle> = [
  'start',
  'buyOpen',
  'buyHigh',
  'buyLow',
  'buyClose',
  'sellOpen',
  'sellHigh',
  'sellLow',
  'sellClose',
  'entries',
];

export const paidApiRoutes: FastifyPluginAsyncTypebox<PaidApiRoutesOptions> = async (
  app,
  { service, rates, officialRates, snapshot, staleAfterHours },
) => {
  const schema = { tags: ['Rates API'], security: [{ apiKey: [] }] };
  const errors = {
    400: { $ref: 'ErrorBody#' },
    401: { $ref: 'ErrorBody#' },
    402: { $ref: 'ErrorBody#' },
    429: { $ref: 'ErrorBody#' },
  };
  /** Calls a plan's entitlements may not open. */
  const gated = { ...errors, 403: { $ref: 'ErrorBody#' } };

  app.get(
    '/rates',
    {
      schema: {
        ...schema,
        summary: 'Latest rates',
        description: `The latest buy and sell rate for every market, base and asset, optionally filtered, each with its mid, spread, change against the previous close, age and staleness. Prices, spreads and changes are JSON numbers exact to the 6 decimal places rates are stored with; percentages are rounded to 4 decimal places. stale is true when the rate is older than ${staleAfterHours} hours (STALE_AFTER_HOURS). Supports If-None-Match: the ETag changes when a rate changes, not as ageSeconds grows. symbols=USD,GBP picks several assets; date=2026-11-01 answers the table as it stood at the end of that UTC day (change against that day's previous close). base, asset and symbols take ISO 4217 codes (NGN, USD…) as well as ids; unknown parameters are ignored.`,
        querystring: RatesQuery,
        response: { 200: Envelope(PaidRates), 304: { type: 'null', description: 'Not modified' }, ...gated },
      },
    },
    (request, reply) => {
      const { date } = request.query;
      const client = request.metered?.client;
      const filter = ratesFilter(
        request.query,
        client?.premium ? undefined : client?.subscription?.entitlements?.markets,
      );
      const snapshotNow = snapshot.get();
      if (date || snapshotNow instanceof Promise)
        return (async () => {
          const current = await snapshotNow;
          const etag = filter.etag(current.version);
          if (!date) return latest(current, etag);
          if (date > formatUtcDate(new Date())) throw badRequest('date must be today or an earlier UTC day.');
          if (await reply.notModified(etag)) return reply.status(304).send();
          const table = await service.datedTable(date, filter);
          // Charged only once the answer exists: a failed query costs the developer nothing.
          await reply.conditional(etag, table.lastModified);
          return table.answer();
        })();
      latest(snapshotNow, filter.etag(snapshotNow.version));

      /**
       * The latest table: the most asked-for paid answer, sent from the snapshot's bytes with no promise while the
       * snapshot is fresh and the count needs none.
       */
      function latest(current: RatesSnapshot, etag: string) {
        const { body, lastModified } = service.latestBody(current, filter, etag);
        reply.conditionalThen(etag, lastModified, (err, notModified) => {
          if (err) reply.send(err);
          else if (notModified) reply.status(304).send();
          // Bytes with a JSON content type go out as they are: the response schema above documents their shape.
          else reply.type('application/json; charset=utf-8').send(body as never);
        });
        return reply;
      }
    },
  );

  /** A 200 of the envelope as JSON, or of the rows as CSV or NDJSON (the examples show the rows' shape). */
  const jsonOrRows = (envelope: TSchema, csvExample: string, ndjsonExample: string) => ({
    description:
      'The envelope as JSON; with format=csv or format=ndjson (or that Accept header) the rows alone.',
    content: {
      'application/json': { schema: envelope },
      'text/csv': { schema: { type: 'string', examples: [csvExample] } },
      'application/x-ndjson': { schema: { type: 'string', examples: [ndjsonExample] } },
    },
  });

  app.get(
    '/rates/history',
    {
      schema: {
        ...schema,
        summary: 'Daily rate history',
        description: `One value per UTC day (the day's last record) for a pair and market, from..to inclusive (default: the last 30 days; at most ${MAX_HISTORY_DAYS} days). Values are numbers with the precision they were entered with. format=csv or format=ndjson (or Accept: text/csv or application/x-ndjson) streams the points as rows: day,buy,sell.`,
        querystring: RateHistoryQuery,
        response: {
          200: jsonOrRows(
            Envelope(RateHistory),
            'day,buy,sell\n2026-11-02,1450.5,1470\n2026-11-03,1452,1471.25\n',
            '{"day":"2026-11-02","buy":1450.5,"sell":1470}\n{"day":"2026-11-03","buy":1452,"sell":1471.25}\n',
          ),
          304: { type: 'null', description: 'Not modified' },
          ...gated,
        },
      },
    },
    async (request, reply) => {
      const { market, base, asset } = request.query;
      const format = answerFormat(request.headers.accept, request.query.format);
      const { from, to } = historyRange(request.query, new Date());
      const current = await snapshot.get();
      const etag = `"${current.version}-h-${market}-${base}-${asset}-${from}-${to}-${format}"`;
      if (await reply.notModified(etag)) return reply.status(304).send();
      if (format !== 'json') {
        const batches = rates.historyBatches({ market, base, asset }, from, to);
        const filename = `afrofx-history-${market}-${base}-${asset}-${from}-${to}`;
        return streamRows(reply, format, batches, ['day', 'buy', 'sell'], filename, etag);
      }
      // Charged only once the answer exists: a failed query costs the developer nothing.
      const points = await rates.history({ market, base, asset }, from, to);
      await reply.conditional(etag);
      return ok({ market, base, asset, from, to, points }, 'Rate history fetched.');
    },
  );

  app.get(
    '/rates/revisions',
    {
      schema: {
        ...schema,
        summary: 'Corrections of published rates',
        description:
          'Every correction and withdrawal of a published rate, newest first (20 a page), with the old and the new buy and sell, the reason and when. Every other call already serves the newest revision; this one shows what changed.',
        querystring: RateRevisionsQuery,
        response: { 200: PagedEnvelope(RateRevision), ...errors },
      },
    },
    async (request, reply) => {
      const { page: pageNumber, ...filter } = request.query;
      const page = pageOf(pageNumber);
      const { rows, count } = await rates.revisions(page, filter);
      await reply.charge();
      return paged(page, rows, count, 'Revisions fetched.');
    },
  );

  app.get(
    '/rates/premium',
    {
      schema: {
        ...schema,
        summary: 'Parallel-market premium over the bank rate',
        description: `How far the cash (black_market_cash) and transfer (black_market_transfer) markets sit above the bank market for a pair, as (market / bank − 1) × 100 for buy, sell and mid (mid = (buy + sell) / 2). now compares each market's latest entry with the bank market's latest entry. last7Days and last30Days cover the UTC days from today back 6 and 29 days: a day's value compares the market's last entry of that UTC day with the bank market's last entry of the same UTC day, and only days on which both markets have an entry count (days says how many did); average is the mean of those daily values, minimum and maximum the lowest and highest of each figure. Percentages are JSON numbers rounded to 4 decimal places; negative means below the bank rate.`,
        querystring: PremiumQuery,
        response: { 200: Envelope(Premium), ...gated },
      },
    },
    async (request, reply) => {
      const premium = await service.premium(request.query.base, request.query.asset);
      // Charged only once the answer exists: a failed query costs the developer nothing.
      await reply.charge();
      return ok(premium, 'Premium fetched.');
    },
  );

  app.get(
    '/rates/official',
    {
      schema: {
        ...schema,
        summary: "Central banks' official reference rates",
        description:
          "The official series beside the three markets: the reference figure each central bank publishes per business day (Central Bank of Nigeria for the naira, Central Bank of Kenya for the shilling, South African Reserve Bank for the rand, Bank of Ghana for the cedi), imported daily. Without from and to, each pair's newest figure; with both (at most 366 days apart), every figure of those days, newest first. mid is units of the base per one unit of the asset; buy and sell are null where the source publishes only a mid. Show attribution wherever a figure is shown: the sources' terms ask for it.",
        querystring: OfficialRatesQuery,
        response: { 200: Envelope(Type.Array(OfficialRate)), ...errors },
      },
    },
    async (request, reply) => {
      const figures = await officialRates.list(request.query);
      // Charged only once the answer exists: a failed query costs the developer nothing.
      await reply.charge();
      return ok(figures, 'Official rates fetched.');
    },
  );

  app.get(
    '/rates/ohlc',
    {
      schema: {
        ...schema,
        summary: 'Candles (open, high, low, close)',
        description: `Open, high, low and close of buy and sell per UTC day, ISO week (Monday to Sunday) or calendar month, from every rate entry of a pair and market: several entries in a day make a real candle, and buckets without entries are absent, never invented. from..to (default: the last 30 days, 26 weeks or 12 months) may span at most ${MAX_CANDLE_DAYS.day} days for day candles, ${MAX_CANDLE_DAYS.week} for weeks and ${MAX_CANDLE_DAYS.month} for months; the answer covers whole buckets, so from moves back to its bucket's start and to on to its end. Values are numbers with the precision they were entered with. format=csv or format=ndjson (or Accept: text/csv or application/x-ndjson) streams the candles as rows.`,
        querystring: RateOhlcQuery,
        response: {
          200: jsonOrRows(
            Envelope(RateOhlc),
            'start,buyOpen,buyHigh,buyLow,buyClose,sellOpen,sellHigh,sellLow,sellClose,entries\n2026-11-02,1450,1462.5,1448,1455,1470,1480,1466,1475,9\n',
            '{"start":"2026-11-02","buyOpen":1450,"buyHigh":1462.5,"buyLow":1448,"buyClose":1455,"sellOpen":1470,"sellHigh":1480,"sellLow":1466,"sellClose":1475,"entries":9}\n',
          ),
          304: { type: 'null', description: 'Not modified' },
          ...gated,
        },
      },
    },
    async (request, reply) => {
      const { market, base, asset, interval } = request.query;
      const format = answerFormat(request.headers.accept, request.query.format);
      const { from, to } = candleRange(interval, request.query, new Date());
      const current = await snapshot.get();
      const etag = `"${current.version}-o-${market}-${base}-${asset}-${interval}-${from}-${to}-${format}"`;
      if (await reply.notModified(etag)) return reply.status(304).send();
      const pair = { market, base, asset };
      if (format !== 'json') {
        const batches = rates.candleBatches(pair, interval, from, to);
        const filename = `afrofx-ohlc-${market}-${base}-${asset}-${interval}-${from}-${to}`;
        return streamRows(reply, format, batches, CANDLE_COLUMNS, filename, etag);
      }
      const candles = await rates.candles(pair, interval, from, to);
      await reply.conditional(etag);
      return ok({ market, base, asset, interval, from, to, candles }, 'Candles fetched.');
    },
  );

  app.get(
    '/convert',
    {
      schema: {
        ...schema,
        summary: 'Convert an amount',
        description:
          "Converts between an asset and a base currency at the latest rate of a market (default Cash), on the buy or sell side. Without side the customer's direction decides: an asset into a base currency (USD to NGN) gets the dealer's buy price, a base currency into an asset (NGN to USD) pays the sell price. The answer states the side and the price used (rate), and its message says both.",
        querystring: ConvertQuery,
        response: { 200: Envelope(Conversion), 404: { $ref: 'ErrorBody#' }, ...gated },
      },
    },
    async (request, reply) => {
      const conversion = await service.convert(request.query);
      await reply.charge();
      return ok(conversion, conversionMessage(conversion));
    },
  );

  app.get(
    '/currencies',
    {
      schema: {
        ...schema,
        summary: 'Markets, bases and assets',
        description:
          'Every market, base currency and asset the API knows, with ISO 4217 codes and names, symbols and flags. Every parameter that takes an asset or base id takes its ISO code too.',
        response: {
          200: Envelope(Currencies),
          304: { type: 'null', description: 'Not modified' },
          ...errors,
        },
      },
    },
    async (request, reply) => {
      if (await reply.conditional('"currencies-v2"')) return reply.status(304).send();
      return ok(service.currencies, 'Currencies fetched.');
    },
  );

  app.get(
    '/usage',
    {
      schema: {
        ...schema,
        summary: "This period's usage",
        description:
          'How many requests this period counted, the limit, and when the count resets: the RateLimit headers as a body. Free: it never counts against the quota.',
        response: { 200: Envelope(Usage), ...errors },
      },
    },
    async (request, reply) => {
      await reply.admitFree();
      const { subject, period } = request.metered!.quota!;
      const used = await reply.quotaUsed();
      if (!subject || !period || used === null) {
        return ok(
          { plan: null, limit: null, used: 0, remaining: null, periodStart: null, resetsAt: null },
          'Premium account: no monthly limit.',
        );
      }
      return ok(
        {
          plan: request.metered!.client!.subscription!.planName,
          limit: subject.limit,
          used,
          remaining: Math.max(subject.limit - used, 0),
          periodStart: period.start.toISOString(),
          resetsAt: period.end.toISOString(),
        },
        'Usage fetched.',
      );
    },
  );
};

/** The answer's sentence names the market, side and price, so a reader of the message alone knows what was used. */
function conversionMessage({ market, side, rate, from, to }: Conversion): string {
  const [base, asset] = (BASES as readonly string[]).includes(from) ? [from, to] : [to, from];
  const code = (id: string) => (ISO_CODES as Record<string, string>)[id] ?? id;
  return `Converted at the ${MARKET_LABELS[market]} ${side} price of ${rate} ${code(base)} per ${code(asset)}.`;
}

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  AdminRate,
  AdminRatesQuery,
  describeQuote,
  Envelope,
  ExportRatesInput,
  IdParams,
  MarketParams,
  MAX_HISTORY_DAYS,
  MessageOnly,
  PagedEnvelope,
  Quote,
  PublicRateHistoryQuery,
  PublicRateOhlcQuery,
  Rate,
  RateHistory,
  RateCorrectionInput,
  RateInput,
  RateWithdrawalInput,
  withFreshness,
  RateOhlc,
} from '@afrofx/shared';
import { messageOnly, ok, paged, pageOf } from '../../http';
import { LIMITS } from '../../limits';
import type { TwitterCredentials } from '../../settings';
import type { RatesService } from './rates.service';
import type { RatesCsvService } from './rates-csv.service';
import type { RatesTweetService } from './rates-tweet.service';
import type { DeskService } from './desk.service';
import { candleRange, historyRange } from '../../rate-range';

/** What app.ts hands these routes. */
export interface RatesRoutesOptions {
  services: {
    rates: RatesService;
    ratesCsv: RatesCsvService;
    ratesTweet: RatesTweetService;
    desk: DeskService;
  };
  runtime: { config: { staleAfterHours: number; twitter: TwitterCredentials | undefined } };
}

export const ratesRoutes: FastifyPluginAsyncTypebox<RatesRoutesOptions> = async (
  app,
  { services, runtime },
) => {
  const staleAfterMs = runtime.config.staleAfterHours * 3_600_000;
  app.get(
    '/user/fetch_rates/:market',
    {
      schema: {
        tags: ['Public'],
        summary: 'Latest rate per base and asset in a market',
        description:
          'The rates of the home page, each with the same mid, spread, change, age and staleness fields as the paid GET /v1/rates (JSON numbers: prices exact to 6 decimal places, percentages rounded to 4).',
        params: MarketParams,
        response: { 200: Envelope(Type.Array(Quote)) },
      },
    },
    async (request) => {
      const latest = await services.rates.latestWithPreviousClose(request.params.market);
      const quotes = latest.map(({ rate, previousClose }) => describeQuote(rate, previousClose));
      return ok(withFreshness(quotes, Date.now(), staleAfterMs), 'Rates fetched.');
    },
  );

  // The site's charts read history and candles without a key; the paid API's /v1/rates/history and /v1/rates/ohlc
  // answer the same values with exports, quota and logging.
  const rateCharts = { preHandler: app.limit(LIMITS.rateCharts) };
  const chartErrors = { 400: { $ref: 'ErrorBody#' }, 429: { $ref: 'ErrorBody#' } };

  app.get(
    '/user/rates/history',
    {
      ...rateCharts,
      schema: {
        tags: ['Public'],
        summary: "Daily rate history for the site's charts",
        description: `The paid GET /v1/rates/history without a key, as JSON only: one value per UTC day (the day's last record), from..to inclusive (default: the last 30 days; at most ${MAX_HISTORY_DAYS} days). Limited to ${LIMITS.rateCharts[0]!.max} requests a minute per client.`,
        querystring: PublicRateHistoryQuery,
        response: { 200: Envelope(RateHistory), ...chartErrors },
      },
    },
    async (request) => {
      const { market, base, asset } = request.query;
      const { from, to } = historyRange(request.query, new Date());
      const points = await services.rates.history({ market, base, asset }, from, to);
      return ok({ market, base, asset, from, to, points }, 'Rate history fetched.');
    },
  );

  app.get(
    '/user/rates/ohlc',
    {
      ...rateCharts,
      schema: {
        tags: ['Public'],
        summary: "Candles for the site's charts",
        description: `The paid GET /v1/rates/ohlc without a key, as JSON only: open, high, low and close of buy and sell per UTC day, ISO week or month; buckets without entries are absent. Limited to ${LIMITS.rateCharts[0]!.max} requests a minute per client.`,
        querystring: PublicRateOhlcQuery,
        response: { 200: Envelope(RateOhlc), ...chartErrors },
      },
    },
    async (request) => {
      const { market, base, asset, interval } = request.query;
      const { from, to } = candleRange(interval, request.query, new Date());
      const candles = await services.rates.candles({ market, base, asset }, interval, from, to);
      return ok({ market, base, asset, interval, from, to, candles }, 'Candles fetched.');
    },
  );

  const admin = { tags: ['Admin'], security: [{ bearerAuth: [] }] };
  // The role is checked before the body is read: a developer gets 403, never a validation message.
  const adminOnly = { onRequest: app.requireAdmin };

  app.get(
    '/admin/fetch_all_rates',
    {
      ...adminOnly,
      schema: {
        ...admin,
        summary: 'Every rate record, newest first, optionally filtered by market, pair and days',
        querystring: AdminRatesQuery,
        response: { 200: PagedEnvelope(AdminRate) },
      },
    },
    async (request) => {
      const { page: pageNumber, ...filter } = request.query;
      const page = pageOf(pageNumber);
      const { rows, count } = await services.rates.list(page, filter);
      return paged(page, rows, count, 'Rates fetched.');
    },
  );

  app.post(
    '/admin/create_rate',
    {
      ...adminOnly,
      config: { activity: 'in-service' },
      schema: {
        ...admin,
        summary: 'Record a rate',
        description: 'Publishes one figure (source desk) as a publication of one row.',
        body: RateInput,
        response: { 201: Envelope(Rate) },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(ok(await services.desk.create(request.body, request.admin!.id), 'Rate created successfully.')),
  );

  app.put(
    '/admin/edit_rate/:id',
    {
      ...adminOnly,
      config: { activity: 'in-service' },
      schema: {
        ...admin,
        summary: 'Correct a rate record',
        description:
          'Appends a revision with the old and new figures and the reason; the record itself never changes, and every read serves the newest revision. Sends rate.corrected.',
        params: IdParams,
        body: RateCorrectionInput,
        response: { 200: Envelope(Rate), 400: { $ref: 'ErrorBody#' }, 404: { $ref: 'ErrorBody#' } },
      },
    },
    async (request) =>
      ok(
        await services.desk.correct(request.params.id, request.body, request.admin!.id),
        'Rate updated successfully.',
      ),
  );

  app.delete(
    '/admin/delete_rate/:id',
    {
      ...adminOnly,
      config: { activity: 'in-service' },
      schema: {
        ...admin,
        summary: 'Withdraw a rate record',
        description:
          'Hides the record from every read and keeps it, with the reason, as a withdrawal revision.',
        params: IdParams,
        querystring: RateWithdrawalInput,
        response: { 200: MessageOnly, 400: { $ref: 'ErrorBody#' }, 404: { $ref: 'ErrorBody#' } },
      },
    },
    async (request) => {
      await services.desk.withdraw(request.params.id, request.query.reason, request.admin!.id);
      return messageOnly('Rate deleted successfully.');
    },
  );

  app.post(
    '/admin/export_rate_to_csv',
    {
      ...adminOnly,
      schema: {
        ...admin,
        summary: 'E-mail every rate as CSV',
        body: ExportRatesInput,
        response: { 202: MessageOnly },
      },
    },
    async (request, reply) => {
      await services.ratesCsv.request(request.body.email);
      return reply.status(202).send(messageOnly(`The rates export will be sent to ${request.body.email}.`));
    },
  );

  app.post(
    '/admin/send_tweet_rate',
    {
      ...adminOnly,
      schema: { ...admin, summary: "Tweet today's naira cash rates", response: { 202: MessageOnly } },
    },
    async (_request, reply) => {
      await services.ratesTweet.tweetLatest();
      // Without credentials the job records the text and skips the post (rates-tweet.job.ts): say so, and why.
      return reply
        .status(202)
        .send(
          messageOnly(
            runtime.config.twitter
              ? 'The rates tweet is on its way.'
              : 'The rates tweet was recorded but will not be posted: no Twitter credentials are set (TWITTER_* in .env).',
          ),
        );
    },
  );
};

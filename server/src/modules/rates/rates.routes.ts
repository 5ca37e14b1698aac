import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
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
  RateInput,
  withFreshness,
  RateOhlc,
} from '@afrofx/shared';
import { done, ok, paged, pageOf } from '../../http';
import { LIMITS } from '../../plugins/limits';
import type { Config } from '../../config';
import type { RatesService } from './rates.service';
import { candleRange, historyRange } from './rate-range';

/** What app.ts hands these routes. */
export interface RatesRoutesOptions {
  services: { rates: RatesService };
  runtime: { config: Pick<Config, 'staleAfterHours' | 'twitter'> };
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
        response: { 200: PagedEnvelope(Rate) },
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
      schema: { ...admin, summary: 'Record a rate', body: RateInput, response: { 201: Envelope(Rate) } },
    },
    async (request, reply) =>
      reply.status(201).send(ok(await services.rates.create(request.body), 'Rate created successfully.')),
  );

  app.put(
    '/admin/edit_rate/:id',
    {
      ...adminOnly,
      schema: {
        ...admin,
        summary: 'Correct a rate record',
        params: IdParams,
        body: RateInput,
        response: { 200: Envelope(Rate) },
      },
    },
    async (request) =>
      ok(await services.rates.update(request.params.id, request.body), 'Rate updated successfully.'),
  );

  app.delete(
    '/admin/delete_rate/:id',
    {
      ...adminOnly,
      schema: { ...admin, summary: 'Delete a rate record', params: IdParams, response: { 200: MessageOnly } },
    },
    async (request) => {
      await services.rates.remove(request.params.id);
      return done('Rate deleted successfully.');
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
      await services.rates.requestExport(request.body.email);
      return reply.status(202).send(done(`The rates export will be sent to ${request.body.email}.`));
    },
  );

  app.post(
    '/admin/send_tweet_rate',
    {
      ...adminOnly,
      schema: { ...admin, summary: "Tweet today's naira cash rates", response: { 202: MessageOnly } },
    },
    async (_request, reply) => {
      await services.rates.tweetLatest();
      // Without credentials the job records the text and skips the post (rates-tweet.job.ts): say so, and why.
      return reply
        .status(202)
        .send(
          done(
            runtime.config.twitter
              ? 'The rates tweet is on its way.'
              : 'The rates tweet was recorded but will not be posted: no Twitter credentials are set (TWITTER_* in .env).',
          ),
        );
    },
  );
};

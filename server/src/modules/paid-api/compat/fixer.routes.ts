// Fixer's calls (the APILayer Fixer API), in its shapes: /latest, /{date}, /timeseries, /fluctuation and /symbols
// (https://fixer.io/documentation), answered from the bank market unless market= says otherwise.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { CalendarDate, formatUtcDate, MAX_HISTORY_DAYS, type Market } from '@afrofx/shared';
import type { FastifyRequest } from 'fastify';
import { historyRange } from '../../../rate-range';
import type { RatesService } from '../../rates/rates.service';
import { ratesFilter } from '../paid-api.service';
import {
  accessKey,
  COMPAT_MARKET,
  compatSchema,
  pastDay,
  peerQuery,
  Rates,
  type CompatOptions,
} from './compat';
import { peerErrorResponses, peerErrors } from './peer-errors';
import {
  baseCode,
  fluctuation,
  noRates,
  peerPairs,
  peerRates,
  peerSeries,
  type PeerPair,
} from './peer-rates';

const FixerQuery = Type.Object(
  { access_key: accessKey, ...peerQuery('EUR') },
  { additionalProperties: false },
);
const RangeQuery = Type.Object(
  {
    access_key: accessKey,
    start_date: { ...CalendarDate, description: 'The first day (UTC), YYYY-MM-DD' },
    end_date: { ...CalendarDate, description: `The last day (UTC), at most ${MAX_HISTORY_DAYS} days on` },
    ...peerQuery('EUR'),
  },
  { additionalProperties: false },
);
type RangeQuery = { start_date: string; end_date: string; market?: Market; base?: string; symbols?: string };

const success = Type.Literal(true);
const timestamp = Type.Integer({
  minimum: 0,
  description: 'Unix time (seconds) of the newest rate in the answer',
});
const RangeFields = { success, start_date: CalendarDate, end_date: CalendarDate, base: Type.String() };

/** A range call is checked as the history of its range: same bounds (historyRange) and entitlements. */
const rangeCall = (request: FastifyRequest) => {
  const query = request.query as RangeQuery;
  return {
    path: '/rates/history',
    query: { market: query.market ?? COMPAT_MARKET, from: query.start_date, to: query.end_date },
  };
};

/** Each asked pair's daily figures over a range, in the peer's direction (days without a record are absent). */
async function seriesOf(rates: RatesService, pairs: PeerPair[], market: Market, from: string, to: string) {
  return Promise.all(
    pairs.map(async (pair) => ({
      pair,
      series: peerSeries(pair, await rates.history({ market, base: pair.base, asset: pair.asset }, from, to)),
    })),
  );
}

export const fixerRoutes: FastifyPluginAsyncTypebox<CompatOptions> = async (
  app,
  { service, rates, snapshot },
) => {
  peerErrors(app, 'fixer');
  const errors = peerErrorResponses('fixer');
  const notModified = { type: 'null', description: 'Not modified' } as const;
  const marketOf = (request: FastifyRequest) =>
    (request.query as { market?: Market }).market ?? COMPAT_MARKET;

  app.get(
    '/latest',
    {
      schema: {
        ...compatSchema,
        summary: 'Latest rates (Fixer)',
        description:
          "Fixer's latest: units of each symbol per one base (default EUR), from the latest rates of a market (default bank). base=EUR&symbols=NGN is our mid; base=NGN&symbols=EUR is 1 / our mid. A pair AfroFX does not publish (EUR→USD) is a 400 invalid_currency_codes (202). Charged and cached (ETag) like /v1/rates.",
        querystring: FixerQuery,
        response: {
          200: Type.Object({ success, timestamp, base: Type.String(), date: CalendarDate, rates: Rates }),
          304: notModified,
          ...errors,
        },
      },
      config: { paidCall: (request) => ({ path: '/rates', query: { market: marketOf(request) } }) },
    },
    async (request, reply) => {
      const market = marketOf(request);
      const base = baseCode(request, request.query.base ?? 'EUR');
      const asked = peerPairs(request, base, request.query.symbols);
      const current = await snapshot.get();
      const answer = peerRates(request, asked, base, market, current.rates);
      const stamp = answer.timestamp ?? Math.floor(Date.now() / 1000);
      const etag = `"${current.version}-fixer-${market}-${base}-${request.query.symbols ?? ''}"`;
      if (await reply.conditional(etag, new Date(stamp * 1000).toUTCString()))
        return reply.status(304).send();
      const date = formatUtcDate(new Date(stamp * 1000));
      return { success: true as const, timestamp: stamp, base, date, rates: answer.rates };
    },
  );

  app.get(
    '/:date(^\\d{4}-\\d{2}-\\d{2}$)',
    {
      schema: {
        ...compatSchema,
        summary: 'Rates of a past day (Fixer)',
        description:
          "Fixer's historical endpoint, /{YYYY-MM-DD}: the rates as they stood at the end of that UTC day, in latest's shape and direction, with historical: true.",
        params: Type.Object({ date: CalendarDate }),
        querystring: FixerQuery,
        response: {
          200: Type.Object({
            success,
            historical: Type.Literal(true),
            date: CalendarDate,
            timestamp,
            base: Type.String(),
            rates: Rates,
          }),
          304: notModified,
          ...errors,
        },
      },
      config: {
        paidCall: (request) => ({
          path: '/rates',
          query: { market: marketOf(request), date: (request.params as { date: string }).date },
        }),
      },
    },
    async (request, reply) => {
      const date = pastDay(request, request.params.date);
      const market = marketOf(request);
      const base = baseCode(request, request.query.base ?? 'EUR');
      const asked = peerPairs(request, base, request.query.symbols);
      const current = await snapshot.get();
      const etag = `"${current.version}-fixer-${date}-${market}-${base}-${request.query.symbols ?? ''}"`;
      if (await reply.notModified(etag)) return reply.status(304).send();
      const table = (await service.datedTable(date, ratesFilter({ market }))).answer().data;
      const answer = peerRates(request, asked, base, market, table);
      await reply.conditional(etag);
      return {
        success: true as const,
        historical: true as const,
        date,
        timestamp: answer.timestamp ?? Date.parse(`${date}T23:59:59Z`) / 1000,
        base,
        rates: answer.rates,
      };
    },
  );

  /** The pairs, market and checked range of a range call; each pair's series, a 404 for an asked one without. */
  async function rangeAnswer(request: FastifyRequest) {
    const query = request.query as RangeQuery;
    pastDay(request, query.end_date, 'end_date');
    const { from, to } = historyRange({ from: query.start_date, to: query.end_date }, new Date());
    const market = marketOf(request);
    const base = baseCode(request, query.base ?? 'EUR');
    const asked = peerPairs(request, base, query.symbols);
    const all = await seriesOf(rates, asked.pairs, market, from, to);
    const missing = all.find(({ series }) => series.length === 0);
    if (missing && asked.explicit) throw noRates(request, missing.pair, market);
    const current = await snapshot.get();
    return {
      base,
      from,
      to,
      asked,
      series: all.filter(({ series }) => series.length > 0),
      etag: (kind: string) =>
        `"${current.version}-fixer-${kind}-${market}-${base}-${query.symbols ?? ''}-${from}-${to}"`,
    };
  }

  app.get(
    '/timeseries',
    {
      schema: {
        ...compatSchema,
        summary: 'Daily rates over a range (Fixer)',
        description: `Fixer's timeseries: each UTC day's rates from start_date to end_date (at most ${MAX_HISTORY_DAYS} days), from the day's last record of a market (default bank), in latest's direction. Days without a record are absent, never invented.`,
        querystring: RangeQuery,
        response: {
          200: Type.Object({
            ...RangeFields,
            timeseries: Type.Literal(true),
            rates: Type.Record(Type.String({ format: 'date' }), Rates, {
              description: 'Per day (YYYY-MM-DD), the rates object of that day',
            }),
          }),
          304: notModified,
          ...errors,
        },
      },
      config: { paidCall: rangeCall },
    },
    async (request, reply) => {
      const answer = await rangeAnswer(request);
      const days: Record<string, Record<string, number>> = {};
      for (const { pair, series } of answer.series)
        for (const { day, rate } of series) (days[day] ??= {})[pair.symbol] = rate;
      const byDay = Object.fromEntries(
        Object.keys(days)
          .sort()
          .map((day) => [day, answer.asked.includesBase ? { [answer.base]: 1, ...days[day] } : days[day]!]),
      );
      if (await reply.conditional(answer.etag('timeseries'))) return reply.status(304).send();
      return {
        success: true as const,
        timeseries: true as const,
        start_date: answer.from,
        end_date: answer.to,
        base: answer.base,
        rates: byDay,
      };
    },
  );

  app.get(
    '/fluctuation',
    {
      schema: {
        ...compatSchema,
        summary: 'How rates moved over a range (Fixer)',
        description: `Fixer's fluctuation: per symbol, the rate of the first and last day with a record from start_date to end_date (at most ${MAX_HISTORY_DAYS} days), the change and the change in percent (4 decimal places), in latest's direction, from a market (default bank).`,
        querystring: RangeQuery,
        response: {
          200: Type.Object({
            ...RangeFields,
            fluctuation: Type.Literal(true),
            rates: Type.Record(
              Type.String({ pattern: '^[A-Z]{3}$' }),
              Type.Object({
                start_rate: Type.Number(),
                end_rate: Type.Number(),
                change: Type.Number(),
                change_pct: Type.Number(),
              }),
            ),
          }),
          304: notModified,
          ...errors,
        },
      },
      config: { paidCall: rangeCall },
    },
    async (request, reply) => {
      const answer = await rangeAnswer(request);
      const moves = Object.fromEntries(
        answer.series.map(({ pair, series }) => [pair.symbol, fluctuation(series)]),
      );
      if (await reply.conditional(answer.etag('fluctuation'))) return reply.status(304).send();
      return {
        success: true as const,
        fluctuation: true as const,
        start_date: answer.from,
        end_date: answer.to,
        base: answer.base,
        rates: moves,
      };
    },
  );

  const names = Object.fromEntries(
    [...service.currencies.assets, ...service.currencies.bases].map(({ code, name }) => [code, name]),
  );
  app.get(
    '/symbols',
    {
      schema: {
        ...compatSchema,
        summary: 'Currencies (Fixer)',
        description:
          "Fixer's symbols: every currency AfroFX carries, by ISO 4217 code, with its name. Charged and cached (ETag) like /v1/currencies.",
        querystring: Type.Object({ access_key: accessKey }, { additionalProperties: false }),
        response: {
          200: Type.Object({
            success,
            symbols: Type.Record(Type.String({ pattern: '^[A-Z]{3}$' }), Type.String(), {
              examples: [{ USD: 'US Dollar', NGN: 'Nigerian Naira' }],
            }),
          }),
          304: notModified,
          ...errors,
        },
      },
    },
    async (_request, reply) => {
      if (await reply.conditional('"symbols-v1"')) return reply.status(304).send();
      return { success: true as const, symbols: names };
    },
  );
};

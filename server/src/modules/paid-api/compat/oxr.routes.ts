// Open Exchange Rates' calls, in its shapes: /latest.json, /historical/{date}.json, /convert/{amount}/{from}/{to}
// and /usage.json (https://docs.openexchangerates.org), answered from the bank market unless market= says otherwise.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  ASSETS,
  BASES,
  CalendarDate,
  entitlementGap,
  fromIsoCode,
  MarketSchema,
  type Asset,
  type Base,
} from '@afrofx/shared';
import { ratesFilter } from '../paid-api.service';
import { appId, COMPAT_MARKET, compatSchema, pastDay, peerQuery, Rates, type CompatOptions } from './compat';
import { peerErrorResponses, peerErrors, peerFault } from './peer-errors';
import { baseCode, INVERSE_DIGITS, peerPairs, peerRates } from './peer-rates';

const DISCLAIMER =
  'Usage subject to the AfroFX terms of service: rates as AfroFX publishes them, per market.';
const LICENSE = 'AfroFX terms of service (/company/terms_of_use)';
const DAY_MS = 86_400_000;

const RatesAnswer = Type.Object({
  disclaimer: Type.String(),
  license: Type.String(),
  timestamp: Type.Integer({
    minimum: 0,
    description: 'Unix time (seconds) of the newest rate in the answer',
  }),
  base: Type.String({ examples: ['USD'] }),
  rates: Rates,
});

const OxrQuery = Type.Object({ app_id: appId, ...peerQuery('USD') }, { additionalProperties: false });

export const oxrRoutes: FastifyPluginAsyncTypebox<CompatOptions> = async (app, { service, snapshot }) => {
  peerErrors(app, 'oxr');
  const errors = peerErrorResponses('oxr');
  const notModified = { type: 'null', description: 'Not modified' } as const;

  app.get(
    '/latest.json',
    {
      schema: {
        ...compatSchema,
        summary: 'Latest rates (Open Exchange Rates)',
        description:
          "Open Exchange Rates' latest.json: units of each symbol per one base (default USD), from the latest rates of a market (default bank). base=USD&symbols=NGN is our mid; base=NGN&symbols=USD is 1 / our mid. A pair AfroFX does not publish (two assets or two bases, such as EUR→USD) is a 400 invalid_currency. Charged and cached (ETag) like /v1/rates.",
        querystring: OxrQuery,
        response: { 200: RatesAnswer, 304: notModified, ...errors },
      },
      config: {
        paidCall: (request) => ({
          path: '/rates',
          query: { market: (request.query as { market?: never }).market ?? COMPAT_MARKET },
        }),
      },
    },
    async (request, reply) => {
      const market = request.query.market ?? COMPAT_MARKET;
      const base = baseCode(request, request.query.base ?? 'USD');
      const asked = peerPairs(request, base, request.query.symbols);
      const current = await snapshot.get();
      const { rates, timestamp = Math.floor(Date.now() / 1000) } = peerRates(
        request,
        asked,
        base,
        market,
        current.rates,
      );
      const etag = `"${current.version}-oxr-${market}-${base}-${request.query.symbols ?? ''}"`;
      if (await reply.conditional(etag, new Date(timestamp * 1000).toUTCString()))
        return reply.status(304).send();
      return { disclaimer: DISCLAIMER, license: LICENSE, timestamp, base, rates };
    },
  );

  app.get(
    '/historical/:date(^\\d{4}-\\d{2}-\\d{2}).json',
    {
      schema: {
        ...compatSchema,
        summary: 'Rates of a past day (Open Exchange Rates)',
        description:
          "Open Exchange Rates' historical/{date}.json: the rates as they stood at the end of that UTC day, in latest.json's shape and direction.",
        params: Type.Object({ date: CalendarDate }),
        querystring: OxrQuery,
        response: { 200: RatesAnswer, 304: notModified, ...errors },
      },
      config: {
        paidCall: (request) => ({
          path: '/rates',
          query: {
            market: (request.query as { market?: never }).market ?? COMPAT_MARKET,
            date: (request.params as { date: string }).date,
          },
        }),
      },
    },
    async (request, reply) => {
      const date = pastDay(request, request.params.date);
      const market = request.query.market ?? COMPAT_MARKET;
      const base = baseCode(request, request.query.base ?? 'USD');
      const asked = peerPairs(request, base, request.query.symbols);
      const current = await snapshot.get();
      const etag = `"${current.version}-oxr-${date}-${market}-${base}-${request.query.symbols ?? ''}"`;
      if (await reply.notModified(etag)) return reply.status(304).send();
      const table = (await service.datedTable(date, ratesFilter({ market }))).answer().data;
      const { rates, timestamp } = peerRates(request, asked, base, market, table);
      await reply.conditional(etag);
      return {
        disclaimer: DISCLAIMER,
        license: LICENSE,
        timestamp: timestamp ?? (Date.parse(date) + DAY_MS) / 1000 - 1,
        base,
        rates,
      };
    },
  );

  const currency = Type.String({
    minLength: 3,
    maxLength: 3,
    pattern: '^[A-Za-z]{3}$',
    description: 'An ISO 4217 code',
    examples: ['USD'],
  });
  app.get(
    '/convert/:amount/:from/:to',
    {
      schema: {
        ...compatSchema,
        summary: 'Convert an amount (Open Exchange Rates)',
        description:
          "Open Exchange Rates' convert/{amount}/{from}/{to}: the same conversion as /v1/convert (same rate side and rounding), from a market (default bank). One of from and to must be an asset (USD, EUR, GBP, CAD) and the other a base (NGN, KES, ZAR, GHS): anything else is a 400.",
        params: Type.Object({
          amount: Type.Number({ exclusiveMinimum: 0, maximum: 1e12, examples: [250] }),
          from: currency,
          to: currency,
        }),
        querystring: Type.Object(
          {
            app_id: appId,
            market: Type.Optional({ ...MarketSchema, description: 'The market (default bank)' }),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({
            disclaimer: Type.String(),
            license: Type.String(),
            request: Type.Object({
              query: Type.String({ examples: ['/convert/250/USD/NGN'] }),
              amount: Type.Number(),
              from: Type.String(),
              to: Type.String(),
            }),
            meta: Type.Object({
              timestamp: Type.Integer({ minimum: 0 }),
              rate: Type.Number({ description: 'Units of to per one from, at the rate used' }),
            }),
            response: Type.Number({ description: 'The converted amount, rounded to 4 decimal places' }),
          }),
          ...errors,
        },
      },
      config: {
        paidCall: (request) => ({
          path: '/convert',
          query: { market: (request.query as { market?: never }).market ?? COMPAT_MARKET },
        }),
      },
    },
    async (request, reply) => {
      const { amount } = request.params;
      const from = request.params.from.toUpperCase();
      const to = request.params.to.toUpperCase();
      const known = [...ASSETS, ...BASES] as readonly string[];
      for (const code of [from, to])
        if (!known.includes(fromIsoCode(code)))
          throw peerFault(request, 'invalid_currency', `${code} is not a currency AfroFX carries.`);
      const conversion = await service.convert({
        amount,
        from: fromIsoCode(from) as Asset | Base,
        to: fromIsoCode(to) as Asset | Base,
        market: request.query.market ?? COMPAT_MARKET,
      });
      await reply.charge();
      const fromAsset = (ASSETS as readonly string[]).includes(conversion.from);
      return {
        disclaimer: DISCLAIMER,
        license: LICENSE,
        request: { query: `/convert/${amount}/${from}/${to}`, amount, from, to },
        meta: {
          timestamp: Math.floor(Date.parse(conversion.rateUpdatedAt) / 1000),
          rate: fromAsset ? conversion.rate : Number((1 / conversion.rate).toPrecision(INVERSE_DIGITS)),
        },
        response: conversion.result,
      };
    },
  );

  app.get(
    '/usage.json',
    {
      schema: {
        ...compatSchema,
        summary: "This period's usage (Open Exchange Rates)",
        description:
          "Open Exchange Rates' usage.json: the plan, this period's count and what the plan opens. Free: it never counts against the quota.",
        querystring: Type.Object({ app_id: appId }, { additionalProperties: false }),
        response: {
          200: Type.Object({
            status: Type.Integer({ examples: [200] }),
            data: Type.Object({
              app_id: Type.String({
                description: 'The AfroFX app the key belongs to (its id, never the key)',
              }),
              status: Type.String({ examples: ['active'] }),
              plan: Type.Object({
                name: Type.String(),
                quota: Type.String({ examples: ['100000 requests / month'] }),
                update_frequency: Type.String(),
                features: Type.Object({
                  base: Type.Boolean(),
                  symbols: Type.Boolean(),
                  experimental: Type.Boolean(),
                  'time-series': Type.Boolean(),
                  convert: Type.Boolean(),
                }),
              }),
              usage: Type.Object({
                requests: Type.Integer({ minimum: 0 }),
                requests_quota: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
                  description: 'null when unlimited (premium account)',
                }),
                requests_remaining: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
                days_elapsed: Type.Integer({ minimum: 0 }),
                days_remaining: Type.Integer({ minimum: 0 }),
                daily_average: Type.Integer({ minimum: 0 }),
              }),
            }),
          }),
          ...errors,
        },
      },
    },
    async (request, reply) => {
      await reply.admitFree();
      const client = request.metered!.client!;
      const { subject, period } = request.metered!.quota!;
      const used = (await reply.quotaUsed()) ?? 0;
      const entitlements = client.subscription?.entitlements;
      const opens = (endpoint: 'history' | 'convert') =>
        !entitlements || entitlementGap(entitlements, { endpoint }) === null;
      const now = Date.now();
      const elapsed = period ? Math.floor((now - period.start.getTime()) / DAY_MS) : 0;
      return {
        status: 200,
        data: {
          app_id: client.appId,
          status: 'active',
          plan: {
            name: client.premium ? 'Premium' : client.subscription!.planName,
            quota: subject ? `${subject.limit} requests / month` : 'unlimited',
            update_frequency: 'as published',
            features: {
              base: true,
              symbols: true,
              experimental: false,
              'time-series': opens('history'),
              convert: opens('convert'),
            },
          },
          usage: {
            requests: used,
            requests_quota: subject ? subject.limit : null,
            requests_remaining: subject ? Math.max(subject.limit - used, 0) : null,
            days_elapsed: elapsed,
            days_remaining: period ? Math.max(Math.ceil((period.end.getTime() - now) / DAY_MS), 0) : 0,
            daily_average: Math.round(used / Math.max(elapsed, 1)),
          },
        },
      };
    },
  );
};

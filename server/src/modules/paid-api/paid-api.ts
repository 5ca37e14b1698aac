// The paid API's scope: CORS for any origin, no page headers, the metering plugin, then the calls. app.ts hands
// it what it needs; nothing here reaches back to the composition root.
import fastifyCors from '@fastify/cors';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { TSchema } from '@sinclair/typebox';
import type { PlanEntitlements } from '@afrofx/shared';
import { lazyChildLogger } from '../../access-log';
import type { OfficialRatesService } from '../official-rates/official-rates.service';
import type { RatesService } from '../rates/rates.service';
import { compatRoutes } from './compat/compat.routes';
import { createEntitlementGuard } from './entitlements';
import { screenQuery } from './foreign-params';
import { meteringPlugin, type MeteringOptions } from './metering';
import { paidApiRoutes } from './paid-api.routes';
import { createPaidApiService } from './paid-api.service';
import type { RatesSnapshotSource } from '../rates/rates-snapshot';

export interface PaidApiOptions {
  metering: MeteringOptions;
  /** The entitlements of the plans on sale, to name the plan that opens a refused call. */
  entitlementsOnSale: () => Promise<PlanEntitlements[]>;
  rates: RatesService;
  officialRates: OfficialRatesService;
  snapshot: RatesSnapshotSource;
  staleAfterHours: number;
}

/** The headers an answer of the paid API exposes to a page's script in another origin. */
const EXPOSED_HEADERS = [
  'Content-Disposition',
  'ETag',
  'Last-Modified',
  'RateLimit',
  'RateLimit-Policy',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'Retry-After',
];

/**
 * What every paid answer carries whatever it is: CORS for any origin (what @fastify/cors adds to an answer when its
 * origin is '*') and nosniff, the one page header a JSON answer needs.
 */
const CALL_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': EXPOSED_HEADERS.join(', '),
  'x-content-type-options': 'nosniff',
};

export const paidApi: FastifyPluginAsyncTypebox<PaidApiOptions> = async (app, options) => {
  const { rates, snapshot, staleAfterHours } = options;

  // A call the key's plan does not open is refused (free) once its parameters are validated: the check runs first in
  // every handler of the scope, the compatibility ones included, rather than as a hook of its own.
  const refusalOf = createEntitlementGuard(options.entitlementsOnSale);
  // Each call is a row of the request log: no access line per call (metering writes the counts once a minute), and
  // no child logger per call unless something is logged. This scope sits beside the site's (app.ts), out of reach of
  // its hooks: a JSON API needs none of helmet's page headers, and every hook costs on the hot path.
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, accessLog: 'aggregated' } as typeof route.config;
    const handler = route.handler;
    route.handler = function entitled(request, reply) {
      const refusal = refusalOf(request);
      if (!refusal) return handler.call(this, request, reply);
      return refusal.then((err) => {
        throw err;
      });
    };
  });
  app.setChildLoggerFactory(lazyChildLogger);

  // Preflights are @fastify/cors's, in a scope of their own: no key, no count, no log row. The answers' own CORS
  // headers are set by the step below, so they cost no hook of their own.
  await app.register(async (preflights) => {
    await preflights.register(fastifyCors, {
      origin: '*',
      methods: ['GET', 'OPTIONS'],
      allowedHeaders: ['Authorization', 'If-None-Match', 'Content-Type'],
      exposedHeaders: EXPOSED_HEADERS,
      maxAge: 86_400,
    });
  });

  await app.register(meteringPlugin, options.metering);

  // The paid call's one step before validation: its constant headers, its key and plan (metering), then its query.
  // What customers of other FX APIs send works here, or is refused: a parameter a call does not know is ignored when
  // harmless (an SDK's cache-buster) and a 400 naming ours when it would choose other figures (foreign-params.ts);
  // ISO 4217 codes stand for the ids they name. A callback throughout: an async hook costs a promise per call.
  app.addHook('onRequest', (request, reply, done) => {
    void reply.headers(CALL_HEADERS);
    app.admitPaidCall(request, reply, (refusal) => {
      if (refusal) return done(refusal);
      const query = request.query as Record<string, unknown> | undefined;
      const declared = (request.routeOptions.schema?.querystring as TSchema | undefined)?.properties as
        Record<string, { enum?: unknown[] }> | undefined;
      if (!query || !declared) return done();
      try {
        screenQuery(query, declared);
      } catch (err) {
        return done(err as Error);
      }
      done();
    });
  });

  const service = createPaidApiService({
    rates,
    snapshot,
    staleAfterMs: staleAfterHours * 3_600_000,
    officialOfPair: (pair, from, to) => options.officialRates.ofPair(pair, from, to),
  });
  await app.register(paidApiRoutes, {
    service,
    rates,
    officialRates: options.officialRates,
    snapshot,
    staleAfterHours,
  });
  // Open Exchange Rates' and Fixer's calls, in this scope so that every rule above is theirs too.
  await app.register(compatRoutes, { service, rates, snapshot });
};

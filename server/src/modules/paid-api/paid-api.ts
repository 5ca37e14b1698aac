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

export const paidApi: FastifyPluginAsyncTypebox<PaidApiOptions> = async (app, options) => {
  const { rates, snapshot, staleAfterHours } = options;

  // A JSON API needs none of helmet's page headers (CSP, frame options…), and they cost on the hot path. Each call
  // is a row of the request log: no access line per call (metering writes the counts once a minute), and no child
  // logger per call unless something is logged.
  app.addHook('onRoute', (route) => {
    route.config = {
      ...route.config,
      securityHeaders: false,
      accessLog: 'aggregated',
    } as typeof route.config;
  });
  app.setChildLoggerFactory(lazyChildLogger);

  await app.register(fastifyCors, {
    origin: '*',
    methods: ['GET', 'OPTIONS'],
    allowedHeaders: ['Authorization', 'If-None-Match', 'Content-Type'],
    exposedHeaders: [
      'Content-Disposition',
      'ETag',
      'Last-Modified',
      'RateLimit',
      'RateLimit-Policy',
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'Retry-After',
    ],
    maxAge: 86_400,
  });

  await app.register(meteringPlugin, options.metering);

  // What customers of other FX APIs send works here, or is refused: a parameter a call does not know is ignored
  // when harmless (an SDK's cache-buster) and a 400 naming ours when it would choose other figures
  // (foreign-params.ts); ISO 4217 codes stand for the ids they name.
  // (A hook with a callback: an async one costs a promise per call even when the query is empty.)
  app.addHook('preValidation', (request, _reply, done) => {
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

  // A call the key's plan does not open is refused (free) once its parameters are known.
  app.addHook('preHandler', createEntitlementGuard(options.entitlementsOnSale));

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

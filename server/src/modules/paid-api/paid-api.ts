// The paid API's scope: CORS for any origin, no page headers, the metering plugin, then the calls. app.ts hands
// it what it needs; nothing here reaches back to the composition root.
import fastifyCors from '@fastify/cors';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { TSchema } from '@sinclair/typebox';
import { fromIsoCode } from '@afrofx/shared';
import type { RatesService } from '../rates/rates.service';
import { meteringPlugin, type MeteringOptions } from './metering';
import { paidApiRoutes } from './paid-api.routes';
import { createPaidApiService } from './paid-api.service';
import type { RatesSnapshotSource } from './rates-snapshot';

export interface PaidApiOptions {
  metering: MeteringOptions;
  rates: RatesService;
  snapshot: RatesSnapshotSource;
  staleAfterHours: number;
}

export const paidApi: FastifyPluginAsyncTypebox<PaidApiOptions> = async (app, options) => {
  const { rates, snapshot, staleAfterHours } = options;

  // A JSON API needs none of helmet's page headers (CSP, frame options…), and they cost on the hot path.
  // (@fastify/helmet's own onRoute hook has run by now, so set the per-route config it reads.)
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, helmet: { skipRoute: true } } as typeof route.config;
  });

  await app.register(fastifyCors, {
    origin: '*',
    methods: ['GET', 'OPTIONS'],
    allowedHeaders: ['Authorization', 'If-None-Match', 'Content-Type'],
    exposedHeaders: [
      'Content-Disposition',
      'ETag',
      'Last-Modified',
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'Retry-After',
    ],
    maxAge: 86_400,
  });

  await app.register(meteringPlugin, options.metering);

  // What customers of other FX APIs send works here too: parameters a call does not know are ignored (an SDK's
  // cache-buster, a field of another provider's API), and ISO 4217 codes stand for the ids they name.
  app.addHook('preValidation', async (request) => {
    const declared = (request.routeOptions.schema?.querystring as TSchema | undefined)?.properties as
      Record<string, { enum?: unknown[] }> | undefined;
    const query = request.query as Record<string, unknown>;
    if (!declared || !query) return;
    for (const [name, value] of Object.entries(query)) {
      if (!(name in declared)) delete query[name];
      else if (declared[name]!.enum && typeof value === 'string') query[name] = fromIsoCode(value);
    }
  });

  const service = createPaidApiService({ rates, snapshot, staleAfterMs: staleAfterHours * 3_600_000 });
  await app.register(paidApiRoutes, { service, rates, snapshot, staleAfterHours });
};

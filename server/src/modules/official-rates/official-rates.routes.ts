import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Envelope, OfficialRate } from '@afrofx/shared';
import { ok } from '../../http';
import type { OfficialRatesService } from './official-rates.service';

/** What app.ts hands these routes. */
export interface OfficialRatesRoutesOptions {
  services: { officialRates: OfficialRatesService };
}

export const officialRatesRoutes: FastifyPluginAsyncTypebox<OfficialRatesRoutesOptions> = async (
  app,
  { services },
) => {
  app.get(
    '/user/official_rates',
    {
      schema: {
        tags: ['Public'],
        summary: "Each pair's newest official reference figure, for the pair pages",
        description:
          "The central banks' newest figure per base and asset, each with the attribution its source's terms ask to be shown. The paid GET /v1/rates/official also answers past days.",
        response: { 200: Envelope(Type.Array(OfficialRate)) },
      },
    },
    async () => ok(await services.officialRates.list({}), 'Official rates fetched.'),
  );
};

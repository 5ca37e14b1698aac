import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, RateStatus } from '@afrofx/shared';
import { ok } from '../../http';
import type { RateStatusService } from './rate-status.service';

/** What app.ts hands these routes. */
export interface RateStatusRoutesOptions {
  services: { rateStatus: RateStatusService };
}

export const rateStatusRoutes: FastifyPluginAsyncTypebox<RateStatusRoutesOptions> = async (
  app,
  { services },
) => {
  app.get(
    '/admin/rate_status',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ['Admin'],
        security: [{ bearerAuth: [] }],
        summary:
          "Each market's last publication against today's deadline, and each official source's last import success and failure",
        response: { 200: Envelope(RateStatus) },
      },
    },
    async () => ok(await services.rateStatus.status(), 'Rate status fetched.'),
  );
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { App, PagedEnvelope, PageQuery } from '@afrofx/shared';
import { paged, pageOf } from '../../http';
import type { AppsService } from './apps.service';

/** What app.ts hands these routes. */
export interface AppsAdminRoutesOptions {
  services: { apps: AppsService };
}

/** SPEC §2 admin Apps: kept apart from apps.routes, whose hooks admit only developers. */
export const appsAdminRoutes: FastifyPluginAsyncTypebox<AppsAdminRoutesOptions> = async (
  app,
  { services },
) => {
  app.get(
    '/admin/fetch_apps',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ['Admin'],
        security: [{ bearerAuth: [] }],
        summary: 'Every app with its creator, newest first',
        querystring: PageQuery,
        response: { 200: PagedEnvelope(App) },
      },
    },
    async (request) => {
      const page = pageOf(request.query.page);
      const { rows, count } = await services.apps.list(page);
      return paged(page, rows, count, 'Apps fetched.');
    },
  );
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { PagedEnvelope, PageQuery, Plan } from '@afrofx/shared';
import { paged, pageOf } from '../../http';
import type { RouteOptions } from '../../app';

export const plansRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  app.get(
    '/account/fetch_plans',
    {
      schema: {
        tags: ['Public'],
        summary: 'API plans on sale',
        querystring: PageQuery,
        response: { 200: PagedEnvelope(Plan) },
      },
    },
    async (request) => {
      const page = pageOf(request.query.page);
      const { rows, count } = await services.plans.list(page);
      return paged(page, rows, count, 'Plans fetched.');
    },
  );
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AdminActivity, AdminActivityQuery, PagedEnvelope } from '@afrofx/shared';
import { paged, pageOf } from '../../http';
import type { ActivityService } from './activity.service';

/** What app.ts hands these routes. */
export interface ActivityRoutesOptions {
  services: { activity: ActivityService };
}

/** The audit trail is read here and nowhere else; no route changes or deletes an entry. */
export const activityRoutes: FastifyPluginAsyncTypebox<ActivityRoutesOptions> = async (app, { services }) => {
  app.get(
    '/admin/activity',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ['Admin'],
        security: [{ bearerAuth: [] }],
        summary: 'The audit trail: every change an admin made, newest first',
        description:
          'Filter by the admin’s e-mail, the kind (rates, publications, plans, users, mailings, exports, tweets, settings) and UTC days (both ends included).',
        querystring: AdminActivityQuery,
        response: { 200: PagedEnvelope(AdminActivity), 400: { $ref: 'ErrorBody#' } },
      },
    },
    async (request) => {
      const { page: pageNumber, ...filter } = request.query;
      const page = pageOf(pageNumber);
      const { rows, count } = await services.activity.list(page, filter);
      return paged(page, rows, count, 'Activity fetched.');
    },
  );
};

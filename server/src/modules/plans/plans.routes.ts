import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  Envelope,
  FeatureInput,
  IdParams,
  MessageOnly,
  PagedEnvelope,
  PageQuery,
  Plan,
  PlanFeatureParams,
  PlanInput,
  PlanParams,
} from '@afrofx/shared';
import { messageOnly, ok, paged, pageOf } from '../../http';
import type { PlansService } from './plans.service';

/** What app.ts hands these routes. */
export interface PlansRoutesOptions {
  services: { plans: PlansService };
}

export const plansRoutes: FastifyPluginAsyncTypebox<PlansRoutesOptions> = async (app, { services }) => {
  app.get(
    '/account/fetch_plans',
    {
      schema: {
        tags: ['Public'],
        summary: 'API plans on sale, cheapest first',
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

  // onRequest: a caller without an admin token learns nothing, not even what the body should hold.
  const adminOnly = { onRequest: app.requireAdmin };
  const schema = { tags: ['Admin'], security: [{ bearerAuth: [] }] };

  app.get(
    '/admin/plans',
    {
      ...adminOnly,
      schema: {
        ...schema,
        summary: 'Plans on sale and drafts, newest first',
        querystring: PageQuery,
        response: { 200: PagedEnvelope(Plan) },
      },
    },
    async (request) => {
      const page = pageOf(request.query.page);
      const { rows, count } = await services.plans.listForAdmin(page);
      return paged(page, rows, count, 'Plans fetched.');
    },
  );

  app.post(
    '/admin/create_plan',
    {
      ...adminOnly,
      schema: { ...schema, summary: 'Create a plan', body: PlanInput, response: { 201: Envelope(Plan) } },
    },
    async (request, reply) =>
      reply.status(201).send(ok(await services.plans.create(request.body), 'Plan created successfully.')),
  );

  app.put(
    '/admin/edit_plan/:id',
    {
      ...adminOnly,
      schema: {
        ...schema,
        summary: 'Edit a plan (subscriptions already sold keep their terms)',
        params: IdParams,
        body: PlanInput,
        response: { 200: Envelope(Plan) },
      },
    },
    async (request) =>
      ok(await services.plans.update(request.params.id, request.body), 'Plan updated successfully.'),
  );

  app.put(
    '/admin/add_features_to_plan/:planId',
    {
      ...adminOnly,
      schema: {
        ...schema,
        summary: 'Add a feature to a plan',
        params: PlanParams,
        body: FeatureInput,
        response: { 200: Envelope(Plan) },
      },
    },
    async (request) =>
      ok(await services.plans.addFeature(request.params.planId, request.body), 'Feature added successfully.'),
  );

  app.delete(
    '/admin/:featureId/remove_feature_from_plan/:planId',
    {
      ...adminOnly,
      schema: {
        ...schema,
        summary: 'Remove a feature from a plan',
        params: PlanFeatureParams,
        response: { 200: Envelope(Plan) },
      },
    },
    async (request) =>
      ok(
        await services.plans.removeFeature(request.params.planId, request.params.featureId),
        'Feature removed successfully.',
      ),
  );

  app.delete(
    '/admin/delete_plan/:id',
    {
      ...adminOnly,
      schema: {
        ...schema,
        summary: 'Delete a plan (one with subscriptions or transactions is retired: off sale, history kept)',
        params: IdParams,
        response: { 200: MessageOnly },
      },
    },
    async (request) => {
      await services.plans.remove(request.params.id);
      return messageOnly('Plan deleted successfully.');
    },
  );
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  ApiKey,
  App,
  AppParams,
  CreateAppInput,
  Envelope,
  PagedEnvelope,
  PageQuery,
  RequestAnalytics,
  RequestLogPage,
  RequestLogQuery,
  Subscription,
  Transaction,
} from '@afrofx/shared';
import { badRequest } from '../../errors';
import { ok, paged, pageOf } from '../../http';
import type { RequestsService } from '../requests/requests.service';
import type { SubscriptionsService } from '../subscriptions/subscriptions.service';
import type { AppsService } from './apps.service';

/** What app.ts hands these routes. */
export interface AppsRoutesOptions {
  services: { apps: AppsService; requests: RequestsService; subscriptions: SubscriptionsService };
}

/** Every {appId} call: the app must be the caller's, else 404 (DESIGN §4). */
export const appsRoutes: FastifyPluginAsyncTypebox<AppsRoutesOptions> = async (app, options) => {
  const { services } = options;
  app.addHook('preHandler', app.requireDeveloper);
  // Every route with an {appId} checks ownership here, so a new one cannot forget it.
  app.addHook('preHandler', async (request) => {
    const { appId } = (request.params ?? {}) as { appId?: string };
    if (appId) await services.apps.owned(request.developer!.id, appId);
  });
  const schema = { tags: ['Apps'], security: [{ bearerAuth: [] }] };

  app.post(
    '/apps/create_app',
    {
      schema: { ...schema, summary: 'Create an app', body: CreateAppInput, response: { 201: Envelope(App) } },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          ok(
            await services.apps.create(request.developer!.id, request.body.name),
            'App created successfully.',
          ),
        ),
  );

  app.get(
    '/apps/all_apps',
    { schema: { ...schema, summary: "The caller's apps", response: { 200: Envelope(Type.Array(App)) } } },
    async (request) => ok(await services.apps.listOwned(request.developer!.id), 'Apps fetched.'),
  );

  app.post(
    '/account/generate_api_key/:appId',
    {
      schema: {
        ...schema,
        summary: 'Create or rotate the key pair (the private key is shown only here)',
        params: AppParams,
        response: { 201: Envelope(ApiKey) },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          ok(
            await services.apps.generateKey(request.params.appId),
            'API key generated. Copy the private key now: it will not be shown again.',
          ),
        ),
  );

  app.get(
    '/account/api_key/:appId',
    {
      schema: {
        ...schema,
        summary: 'Public key and masked private key',
        params: AppParams,
        response: { 200: Envelope(Type.Union([ApiKey, Type.Null()])) },
      },
    },
    async (request) => {
      const key = await services.apps.key(request.params.appId);
      return ok(key, key ? 'API key fetched.' : 'No API key has been generated for this app yet.');
    },
  );

  app.get(
    '/account/app_request_analytics/:appId',
    {
      schema: {
        ...schema,
        summary: 'Request counts: today, last 7 days, last 30 days, per day',
        params: AppParams,
        response: { 200: Envelope(RequestAnalytics) },
      },
    },
    async (request) => {
      return ok(await services.requests.analytics(request.params.appId), 'Request analytics fetched.');
    },
  );

  app.get(
    '/account/app_request/:appId',
    {
      schema: {
        ...schema,
        summary: 'Request log, newest first',
        description:
          'Pages by cursor (pass pagination.cursor of the previous page), as fast at any depth; or by page number.',
        params: AppParams,
        querystring: RequestLogQuery,
        response: { 200: RequestLogPage },
      },
    },
    async (request) => {
      const { cursor } = request.query;
      if (cursor !== undefined && request.query.page !== undefined) {
        throw badRequest('Pass either page or cursor, not both.');
      }
      const page = pageOf(request.query.page);
      const position = cursor === undefined ? { page } : { cursor, limit: page.limit };
      const {
        rows,
        count,
        cursor: nextCursor,
        more,
      } = await services.requests.list(request.params.appId, position);
      return {
        data: rows,
        message: 'Requests fetched.',
        pagination: { next: cursor === undefined && more ? page.page + 1 : null, count, cursor: nextCursor },
      };
    },
  );

  app.get(
    '/account/fetch_transactions/:appId',
    {
      schema: {
        ...schema,
        summary: "The app's transactions",
        params: AppParams,
        querystring: PageQuery,
        response: { 200: PagedEnvelope(Transaction) },
      },
    },
    async (request) => {
      const page = pageOf(request.query.page);
      const { rows, count } = await services.subscriptions.transactions(request.params.appId, page);
      return paged(page, rows, count, 'Transactions fetched.');
    },
  );

  app.get(
    '/account/fetch_subscription/:appId',
    {
      schema: {
        ...schema,
        summary: "The app's current subscription, or null",
        params: AppParams,
        response: { 200: Envelope(Type.Union([Subscription, Type.Null()])) },
      },
    },
    async (request) => {
      const subscription = await services.subscriptions.current(request.params.appId);
      return ok(subscription, subscription ? 'Subscription fetched.' : 'No active subscription.');
    },
  );

  app.get(
    '/account/fetch_upcoming_subscription/:appId',
    {
      schema: {
        ...schema,
        summary: 'The plan that starts when the current one ends, or null',
        params: AppParams,
        response: { 200: Envelope(Type.Union([Subscription, Type.Null()])) },
      },
    },
    async (request) => {
      const subscription = await services.subscriptions.upcoming(request.params.appId);
      return ok(subscription, subscription ? 'Upcoming subscription fetched.' : 'No upcoming subscription.');
    },
  );
};

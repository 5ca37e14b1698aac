import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  AppParams,
  CreateWebhookInput,
  Envelope,
  MessageOnly,
  PagedEnvelope,
  PageQuery,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
  WebhookParams,
} from '@afrofx/shared';
import { APP_NOT_FOUND, notFound, unauthorized } from '../../errors';
import { messageOnly, ok, paged, pageOf } from '../../http';
import type { AppsService } from '../apps/apps.service';
import type { WebhooksService } from './webhooks.service';
import { LIMITS } from '../../limits';

const PRIVATE_KEY = /^Bearer\s+(sk_\S+)\s*$/i;
const INVALID_KEY =
  'Invalid API key. Send the private key of this app as: Authorization: Bearer <private key>.';
const SECRET_SHOWN_ONCE = 'Copy the signing secret now: it will not be shown again.';

/** What app.ts hands these routes. */
export interface WebhooksRoutesOptions {
  services: { apps: AppsService; webhooks: WebhooksService };
}

/**
 * Webhook endpoints of an app, managed with the developer's console session (and the app must be theirs) or with
 * the app's own private key, as a customer's deployment script would.
 */
export const webhooksRoutes: FastifyPluginAsyncTypebox<WebhooksRoutesOptions> = async (app, { services }) => {
  const keyLimit = app.limit(LIMITS.webhookManagement);
  app.addHook('preHandler', async (request, reply) => {
    const { appId } = request.params as { appId: string };
    const privateKey = PRIVATE_KEY.exec(request.headers.authorization ?? '')?.[1];
    if (privateKey) {
      // Another app's key is answered like a missing app, as the session check does, so ids can't be probed.
      const keyApp = await services.apps.appOfPrivateKey(privateKey);
      if (!keyApp) throw unauthorized(INVALID_KEY);
      if (keyApp !== appId) throw notFound(APP_NOT_FOUND);
      // A script with the key is limited per app, counted once the key holds the app (nobody else spends its
      // count); the console's own calls, with the developer's session, are not.
      await keyLimit(request, reply);
      return;
    }
    await app.requireDeveloper(request);
    await services.apps.owned(request.developer!.id, appId);
  });
  const schema = {
    tags: ['Webhooks'],
    security: [{ bearerAuth: [] }, { apiKey: [] }] as Array<Record<string, string[]>>,
  };
  const errors = {
    400: { $ref: 'ErrorBody#' },
    401: { $ref: 'ErrorBody#' },
    402: { $ref: 'ErrorBody#' },
    403: { $ref: 'ErrorBody#' },
    404: { $ref: 'ErrorBody#' },
  };

  app.post(
    '/account/webhooks/:appId',
    {
      schema: {
        ...schema,
        summary: 'Register a webhook endpoint (the signing secret is shown only here)',
        description:
          'Needs an active plan (402 otherwise) that opens webhooks (403 otherwise, naming the plan that does). ' +
          'The URL must be http(s) on a public address: private, loopback, ' +
          'link-local, unique-local, CGNAT and unspecified addresses are refused (400).',
        params: AppParams,
        body: CreateWebhookInput,
        response: { 201: Envelope(WebhookEndpointWithSecret), ...errors },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          ok(
            await services.webhooks.create(request.params.appId, request.body),
            `Webhook endpoint created. ${SECRET_SHOWN_ONCE}`,
          ),
        ),
  );

  app.get(
    '/account/webhooks/:appId',
    {
      schema: {
        ...schema,
        summary: "The app's webhook endpoints, newest first",
        params: AppParams,
        response: { 200: Envelope(Type.Array(WebhookEndpoint)), 404: errors[404] },
      },
    },
    async (request) => ok(await services.webhooks.list(request.params.appId), 'Webhook endpoints fetched.'),
  );

  app.delete(
    '/account/webhooks/:appId/:endpointId',
    {
      schema: {
        ...schema,
        summary: 'Delete a webhook endpoint and its delivery log',
        params: WebhookParams,
        response: { 200: MessageOnly, 404: errors[404] },
      },
    },
    async (request) => {
      await services.webhooks.remove(request.params.appId, request.params.endpointId);
      return messageOnly('Webhook endpoint deleted.');
    },
  );

  app.post(
    '/account/webhooks/:appId/:endpointId/rotate_secret',
    {
      schema: {
        ...schema,
        summary: 'Replace the signing secret (the old one stops signing at once)',
        params: WebhookParams,
        response: { 200: Envelope(WebhookEndpointWithSecret), 404: errors[404] },
      },
    },
    async (request) =>
      ok(
        await services.webhooks.rotateSecret(request.params.appId, request.params.endpointId),
        `Signing secret rotated. ${SECRET_SHOWN_ONCE}`,
      ),
  );

  app.post(
    '/account/webhooks/:appId/:endpointId/test',
    {
      preHandler: app.limit(LIMITS.webhookTest),
      schema: {
        ...schema,
        summary: 'Send a webhook.test event to the endpoint',
        description: 'The delivery is queued and appears in the delivery log like any other.',
        params: WebhookParams,
        response: { 202: Envelope(WebhookDelivery), 402: errors[402], 404: errors[404] },
      },
    },
    async (request, reply) =>
      reply
        .status(202)
        .send(
          ok(
            await services.webhooks.sendTest(request.params.appId, request.params.endpointId),
            'Test event queued.',
          ),
        ),
  );

  app.post(
    '/account/webhooks/:appId/:endpointId/resume',
    {
      schema: {
        ...schema,
        summary: 'Resume a parked endpoint: its kept deliveries go out, oldest first',
        description:
          'An endpoint is parked after repeated failed attempts in a row; its deliveries are kept meanwhile. ' +
          'Resuming an endpoint that is not parked changes nothing.',
        params: WebhookParams,
        response: { 200: Envelope(WebhookEndpoint), 404: errors[404] },
      },
    },
    async (request) =>
      ok(
        await services.webhooks.resume(request.params.appId, request.params.endpointId),
        'Webhook endpoint resumed. Its waiting deliveries are being sent.',
      ),
  );

  app.get(
    '/account/webhooks/:appId/:endpointId/deliveries',
    {
      schema: {
        ...schema,
        summary: "The endpoint's delivery log, newest first, with every attempt",
        params: WebhookParams,
        querystring: PageQuery,
        response: { 200: PagedEnvelope(WebhookDelivery), 404: errors[404] },
      },
    },
    async (request) => {
      const page = pageOf(request.query.page);
      const { rows, count } = await services.webhooks.deliveries(
        request.params.appId,
        request.params.endpointId,
        page,
      );
      return paged(page, rows, count, 'Deliveries fetched.');
    },
  );
};

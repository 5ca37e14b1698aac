import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AppParams,
  CreateTransactionInput,
  Envelope,
  InitializePaymentInput,
  PAYMENT_REFERENCE_PATTERN,
  PaymentCheckout,
  Purchase,
} from '@afrofx/shared';
import { DomainError, unauthorized } from '../../errors';
import { ok } from '../../http';
import type { RouteOptions } from '../../route-options';
import { WEBHOOK_SIGNATURE_HEADER } from './payment-provider';

const REFERENCE = new RegExp(PAYMENT_REFERENCE_PATTERN);

/** The reference a provider event is about, wherever its body puts it. */
function referenceOf(event: unknown): string | undefined {
  const data = (event as { data?: { reference?: unknown; transaction?: { reference?: unknown } } })?.data;
  const reference = data?.reference ?? data?.transaction?.reference;
  return typeof reference === 'string' && REFERENCE.test(reference) ? reference : undefined;
}

export const paymentsRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  const developer = {
    onRequest: app.requireDeveloper,
    preHandler: async (request: { developer?: { id: string }; params: unknown }) => {
      await services.apps.owned(request.developer!.id, (request.params as { appId: string }).appId);
    },
  };
  const schema = { tags: ['Apps'], security: [{ bearerAuth: [] }] };

  app.post(
    '/account/initialize_payment/:appId',
    {
      ...developer,
      schema: {
        ...schema,
        summary: 'Start buying a plan: a pending order with the price to pay in the provider modal',
        params: AppParams,
        body: InitializePaymentInput,
        response: { 201: Envelope(PaymentCheckout) },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          ok(
            await services.payments.initialize(request.developer!.id, request.params.appId, request.body),
            'Payment initialized.',
          ),
        ),
  );

  app.post(
    '/account/create_transaction/:appId',
    {
      ...developer,
      schema: {
        ...schema,
        summary:
          'Record a payment made in the provider modal (verified with the provider before any plan is added)',
        params: AppParams,
        body: CreateTransactionInput,
        response: { 200: Envelope(Purchase) },
      },
    },
    async (request) =>
      ok(await services.payments.confirm(request.params.appId, request.body), 'Payment successful.'),
  );

  // The provider's webhook: the signature covers the raw bytes, so this scope keeps the body unparsed.
  await app.register(async (hooks) => {
    hooks.removeAllContentTypeParsers();
    hooks.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    hooks.post('/payments/basqet/webhook', { schema: { hide: true } }, async (request) => {
      const raw = request.body as Buffer;
      const signature = request.headers[WEBHOOK_SIGNATURE_HEADER];
      if (
        !services.payments.webhookSignatureIsValid(raw, typeof signature === 'string' ? signature : undefined)
      ) {
        throw unauthorized('The webhook signature is not valid.');
      }
      let event: unknown;
      try {
        event = JSON.parse(raw.toString('utf8'));
      } catch {
        throw new DomainError(400, 'The webhook body is not JSON.');
      }
      const reference = referenceOf(event);
      // Events about other payments are acknowledged, so the provider does not send them again.
      const outcome = reference ? await services.payments.onWebhook(reference) : 'unknown';
      if (outcome === 'unavailable') {
        throw new DomainError(503, 'The payment provider could not be reached; send the event again later.');
      }
      return { data: { outcome }, message: 'Event received.' };
    });
  });
};

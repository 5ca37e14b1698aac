import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  AppParams,
  CreateTransactionInput,
  Envelope,
  HeldPayment,
  InitializePaymentInput,
  PAYMENT_REFERENCE_PATTERN,
  InitializedPayment,
  PagedEnvelope,
  PageQuery,
  Purchase,
  planTitle,
  Receipt,
  ReceiptParams,
} from '@afrofx/shared';
import { DomainError, unauthorized } from '../../errors';
import { ok, paged, pageOf } from '../../http';
import type { AppsService } from '../apps/apps.service';
import type { PaymentsService } from './payments.service';
import type { ReceiptsService } from './receipts.service';
import {
  BASQET_WEBHOOK_ID_FIELDS,
  BASQET_WEBHOOK_REFERENCE_FIELDS,
  BASQET_WEBHOOK_SIGNATURE_HEADER,
} from '../../providers/basqet-contract';
import { PROVIDER_TRANSACTION_ID } from './payment-provider';

const REFERENCE = new RegExp(PAYMENT_REFERENCE_PATTERN);

/** The strings at these dotted paths of a provider event that have the given shape. */
function fieldsOf(event: unknown, paths: readonly string[], shape: RegExp): string[] {
  return paths
    .map((path) =>
      path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown> | null)?.[key], event),
    )
    .filter((value): value is string => typeof value === 'string' && shape.test(value));
}

/** What app.ts hands these routes. */
export interface PaymentsRoutesOptions {
  services: { apps: AppsService; payments: PaymentsService; receipts: ReceiptsService };
}

export const paymentsRoutes: FastifyPluginAsyncTypebox<PaymentsRoutesOptions> = async (app, { services }) => {
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
        summary:
          'Start buying a plan: a pending order with the price to pay in the provider modal (a free plan is activated at once)',
        params: AppParams,
        body: InitializePaymentInput,
        response: { 201: Envelope(InitializedPayment) },
      },
    },
    async (request, reply) => {
      const answer = await services.payments.initialize(
        request.developer!.id,
        request.params.appId,
        request.body,
      );
      return reply
        .status(201)
        .send(
          ok(
            answer,
            'activated' in answer
              ? `The ${planTitle(answer.subscription.plan.name)} is active on this app at no charge.`
              : 'Payment initialized.',
          ),
        );
    },
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

  const receiptsSchema = { tags: ['Account'], security: [{ bearerAuth: [] }] };

  app.get(
    '/account/receipts',
    {
      onRequest: app.requireDeveloper,
      schema: {
        ...receiptsSchema,
        summary: "The receipts of the account's payments, newest first",
        querystring: PageQuery,
        response: { 200: PagedEnvelope(Receipt) },
      },
    },
    async (request) => {
      const page = pageOf(request.query.page);
      const { rows, count } = await services.receipts.list(request.developer!.id, page);
      return paged(page, rows, count, 'Receipts fetched.');
    },
  );

  app.get(
    '/account/receipts/:reference',
    {
      onRequest: app.requireDeveloper,
      schema: {
        ...receiptsSchema,
        summary: "One receipt, by payment reference (404 for an unknown one or another account's)",
        params: ReceiptParams,
        response: { 200: Envelope(Receipt) },
      },
    },
    async (request) =>
      ok(await services.receipts.one(request.developer!.id, request.params.reference), 'Receipt fetched.'),
  );

  app.get(
    '/admin/held_payments',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ['Admin'],
        security: [{ bearerAuth: [] }],
        summary: 'Payments taken but not granted (they would have stacked a second upcoming plan), to refund',
        response: { 200: Envelope(Type.Array(HeldPayment)) },
      },
    },
    async () => ok(await services.payments.held(), 'Held payments fetched.'),
  );

  // The provider's webhook: the signature covers the raw bytes, so this scope keeps the body unparsed.
  await app.register(async (hooks) => {
    hooks.removeAllContentTypeParsers();
    hooks.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    hooks.post('/payments/basqet/webhook', { schema: { hide: true } }, async (request) => {
      const raw = request.body as Buffer;
      const signature = request.headers[BASQET_WEBHOOK_SIGNATURE_HEADER];
      if (!services.payments.webhookIsAuthentic(raw, typeof signature === 'string' ? signature : undefined)) {
        throw unauthorized('The webhook signature is not valid.');
      }
      let event: unknown;
      try {
        event = JSON.parse(raw.toString('utf8'));
      } catch {
        throw new DomainError(400, 'The webhook body is not JSON.');
      }
      // Events about other payments are acknowledged, so the provider does not send them again.
      const outcome = await services.payments.onWebhook({
        transactionIds: fieldsOf(event, BASQET_WEBHOOK_ID_FIELDS, PROVIDER_TRANSACTION_ID),
        references: fieldsOf(event, BASQET_WEBHOOK_REFERENCE_FIELDS, REFERENCE),
      });
      if (outcome.kind === 'unavailable') {
        throw new DomainError(503, 'The payment provider could not be reached; send the event again later.');
      }
      return { data: { outcome: outcome.kind }, message: 'Event received.' };
    });
  });
};

// PAYMENT_PROVIDER=sandbox (the default without keys; refused in production): a local copy of the provider's HTTP
// API and checkout script, served by the product under /sandbox-pay, so the real client code runs over HTTP in
// `npm start` and in tests. Its books are the sandbox_payments table.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { eq } from 'drizzle-orm';
import { PAYMENT_REFERENCE_PATTERN, PaymentCurrencySchema, Text } from '@afrofx/shared';
import { sandboxPayments } from '../../db/schema';
import type { RouteOptions } from '../../route-options';
import { signWebhook, WEBHOOK_SIGNATURE_HEADER } from './payment-provider';
import { SANDBOX_CHECKOUT_SCRIPT } from './sandbox-checkout-script';

const ReferenceParams = Type.Object({ reference: Type.String({ pattern: PAYMENT_REFERENCE_PATTERN }) });
const CheckoutBody = Type.Object({
  reference: Type.String({ pattern: PAYMENT_REFERENCE_PATTERN }),
  publicKey: Text({ maxLength: 200 }),
  amount: Type.Number({ exclusiveMinimum: 0, maximum: 1e12 }),
  currency: PaymentCurrencySchema,
});

export const sandboxPayRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { runtime }) => {
  const { config, database, log } = runtime;
  const db = database.db;
  const hide = { hide: true };

  app.get('/checkout.js', { schema: hide }, async (_request, reply) =>
    reply
      .type('application/javascript; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(SANDBOX_CHECKOUT_SCRIPT),
  );

  /** The provider tells the merchant's webhook, as Basqet does; a failure is the merchant's reconcile job's to cover. */
  const notify = (reference: string, status: string) => {
    const body = JSON.stringify({
      event: `transaction.${status.toLowerCase()}`,
      data: { reference, status },
    });
    fetch(`${config.publicUrl}/v1/payments/basqet/webhook`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [WEBHOOK_SIGNATURE_HEADER]: signWebhook(body, config.payment.secretKey),
      },
      body,
      signal: AbortSignal.timeout(5000),
    }).catch((err: unknown) => log.warn({ err, reference }, 'sandbox webhook not delivered'));
  };

  for (const [action, status] of [
    ['pay', 'SUCCESSFUL'],
    ['decline', 'DECLINED'],
  ] as const) {
    app.post(
      `/v1/checkout/:reference/${action}`,
      { schema: { ...hide, params: ReferenceParams, body: CheckoutBody } },
      async (request, reply) => {
        const { reference } = request.params;
        if (request.body.reference !== reference || request.body.publicKey !== config.payment.publicKey) {
          return reply.status(400).send({ message: 'This checkout does not belong to this merchant.' });
        }
        // A reference is settled once, like a card payment: paying or declining again changes nothing.
        const [written] = await db
          .insert(sandboxPayments)
          .values({
            reference,
            status,
            currency: request.body.currency,
            amount: request.body.amount.toFixed(2),
          })
          .onConflictDoNothing()
          .returning();
        const [row] = written
          ? [written]
          : await db.select().from(sandboxPayments).where(eq(sandboxPayments.reference, reference));
        if (written) notify(reference, status);
        return { status: 'success', data: { id: reference, reference, status: row!.status } };
      },
    );
  }

  app.get(
    '/v1/transaction/:reference/status',
    { schema: { ...hide, params: ReferenceParams } },
    async (request, reply) => {
      if (request.headers.authorization !== `Bearer ${config.payment.secretKey}`) {
        return reply.status(401).send({ status: 'error', message: 'Invalid secret key' });
      }
      const [row] = await db
        .select()
        .from(sandboxPayments)
        .where(eq(sandboxPayments.reference, request.params.reference));
      if (!row) return reply.status(404).send({ status: 'error', message: 'Transaction not found' });
      return {
        status: 'success',
        data: { reference: row.reference, status: row.status, amount: row.amount, currency: row.currency },
      };
    },
  );
};

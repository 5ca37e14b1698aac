// PAYMENT_PROVIDER=sandbox (the default without keys; refused in production): a fake of Basqet's contract as its
// client libraries show it (basqet-contract.ts), served by the product under /sandbox-pay: the same paths, the
// `{status, data, meta}` envelope, the Bearer public key, the test-mode `trigger` call, and a stand-in `basqet.js`
// that defines `window.payWithBasqet`. So the live adapter runs over HTTP in `npm start` and in tests. Its books are
// the sandbox_transactions table.
import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { and, eq } from 'drizzle-orm';
import { PAYMENT_AMOUNT_MAX, PAYMENT_CURRENCIES, StringEnum, Text } from '@afrofx/shared';
import { sandboxTransactions } from '../../db/schema';
import type { Logger } from 'pino';
import type { PaymentSettings } from '../../settings';
import type { DatabaseHandle } from '../../db/client';
import {
  BASQET_FAILED_STATUSES,
  BASQET_PAID_STATUS,
  BASQET_WEBHOOK_SIGNATURE_HEADER,
  type BasqetTransaction,
} from '../../providers/basqet-contract';
import { PROVIDER_TRANSACTION_ID, signWebhook } from './payment-provider';
import { SANDBOX_CHECKOUT_SCRIPT } from './sandbox-checkout-script';

const TransactionParams = Type.Object({ id: Type.String({ pattern: PROVIDER_TRANSACTION_ID.source }) });
const InitializeBody = Type.Object({
  customer: Type.Object({ name: Text({ maxLength: 200 }), email: Text({ maxLength: 320 }) }),
  // A decimal string, as the SDKs send it, bounded by PAYMENT_AMOUNT_MAX below.
  amount: Type.String({ pattern: '^[0-9]{1,11}(\\.[0-9]{1,2})?$' }),
  currency: StringEnum(PAYMENT_CURRENCIES),
  meta: Type.Optional(Type.Object({ reference: Type.Optional(Text({ maxLength: 100 })) })),
});
const TriggerBody = Type.Object({
  status: Type.Union([
    Type.Literal(BASQET_PAID_STATUS),
    ...[...BASQET_FAILED_STATUSES].map((s) => Type.Literal(s)),
  ]),
});
const PENDING = 'PENDING';

/** What app.ts hands these routes. */
export interface SandboxPayRoutesOptions {
  runtime: { config: { payment: PaymentSettings; publicUrl: string }; database: DatabaseHandle; log: Logger };
}

export const sandboxPayRoutes: FastifyPluginAsyncTypebox<SandboxPayRoutesOptions> = async (
  app,
  { runtime },
) => {
  const { config, database, log } = runtime;
  const db = database.db;
  const hide = { hide: true };
  const refused = (status: number, message: string) => ({ status, body: { status: 'error', message } });

  app.get('/basqet.js', { schema: hide }, async (_request, reply) =>
    reply
      .type('application/javascript; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(SANDBOX_CHECKOUT_SCRIPT),
  );

  // Every call carries the public key as Bearer, as both official clients send it.
  await app.register(async (scope) => {
    const api = scope.withTypeProvider<TypeBoxTypeProvider>();
    api.addHook('onRequest', async (request, reply) => {
      if (request.headers.authorization !== `Bearer ${config.payment.publicKey}`) {
        const { status, body } = refused(401, 'Invalid public key');
        return reply.status(status).send(body);
      }
    });

    const envelope = (data: unknown) => ({ status: 'success', data, meta: {} });
    const transactionData = (row: typeof sandboxTransactions.$inferSelect): BasqetTransaction => ({
      id: row.id,
      reference: row.reference,
      status: row.status,
      initialized_amount: row.amount,
      initialized_currency: row.currency,
    });

    api.post('/v1/transaction', { schema: { ...hide, body: InitializeBody } }, async (request, reply) => {
      const { customer, amount, currency, meta } = request.body;
      if (!(Number(amount) > 0 && Number(amount) <= PAYMENT_AMOUNT_MAX)) {
        const { status, body } = refused(400, `amount must be above 0 and at most ${PAYMENT_AMOUNT_MAX}`);
        return reply.status(status).send(body);
      }
      const [row] = await db
        .insert(sandboxTransactions)
        .values({
          id: `txn_${randomBytes(12).toString('hex')}`,
          reference: meta?.reference ?? '',
          email: customer.email,
          amount,
          currency,
          status: PENDING,
        })
        .returning();
      return reply.status(201).send(envelope(transactionData(row!)));
    });

    api.get(
      '/v1/transaction/:id/status',
      { schema: { ...hide, params: TransactionParams } },
      async (request, reply) => {
        const [row] = await db
          .select()
          .from(sandboxTransactions)
          .where(eq(sandboxTransactions.id, request.params.id));
        if (!row) return reply.status(404).send({ status: 'error', message: 'Transaction not found' });
        return envelope({ status: row.status });
      },
    );

    /** The provider tells the merchant's webhook (the body is UNCONFIRMED, see basqet-contract.ts). */
    const notify = (row: typeof sandboxTransactions.$inferSelect) => {
      const body = JSON.stringify({ event: 'transaction.updated', data: transactionData(row) });
      fetch(`${config.publicUrl}/v1/payments/basqet/webhook`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [BASQET_WEBHOOK_SIGNATURE_HEADER]: signWebhook(body, config.payment.secretKey),
        },
        body,
        signal: AbortSignal.timeout(5000),
      }).catch((err: unknown) => log.warn({ err, id: row.id }, 'sandbox webhook not delivered'));
    };

    // Test mode's "mock a webhook event": settles a pending transaction once, like a card payment.
    api.post(
      '/v1/transaction/:id/trigger',
      { schema: { ...hide, params: TransactionParams, body: TriggerBody } },
      async (request, reply) => {
        const [settled] = await db
          .update(sandboxTransactions)
          .set({ status: request.body.status })
          .where(and(eq(sandboxTransactions.id, request.params.id), eq(sandboxTransactions.status, PENDING)))
          .returning();
        const [row] = settled
          ? [settled]
          : await db.select().from(sandboxTransactions).where(eq(sandboxTransactions.id, request.params.id));
        if (!row) return reply.status(404).send({ status: 'error', message: 'Transaction not found' });
        if (settled) notify(settled);
        return envelope({ status: row.status });
      },
    );
  });
};

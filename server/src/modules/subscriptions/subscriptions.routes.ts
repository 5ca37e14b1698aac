import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { PagedEnvelope, PageQuery, Subscription, Transaction } from '@afrofx/shared';
import { paged, pageOf } from '../../http';
import type { SubscriptionsService } from './subscriptions.service';

/** What app.ts hands these routes. */
export interface SubscriptionsRoutesOptions {
  services: { subscriptions: SubscriptionsService };
}

/** SPEC §2 admin Transactions and Subscriptions screens, newest first (DESIGN §4). */
export const subscriptionsRoutes: FastifyPluginAsyncTypebox<SubscriptionsRoutesOptions> = async (
  app,
  { services },
) => {
  const adminOnly = { onRequest: app.requireAdmin };
  const schema = { tags: ['Admin'], security: [{ bearerAuth: [] }], querystring: PageQuery };

  app.get(
    '/admin/fetch_transactions',
    {
      ...adminOnly,
      schema: {
        ...schema,
        summary: 'Every transaction, newest first',
        response: { 200: PagedEnvelope(Transaction) },
      },
    },
    async (request) => {
      const page = pageOf(request.query.page);
      const { rows, count } = await services.subscriptions.allTransactions(page);
      return paged(page, rows, count, 'Transactions fetched.');
    },
  );

  app.get(
    '/admin/fetch_subscriptions',
    {
      ...adminOnly,
      schema: {
        ...schema,
        summary: 'Every subscription, newest first',
        response: { 200: PagedEnvelope(Subscription) },
      },
    },
    async (request) => {
      const page = pageOf(request.query.page);
      const { rows, count } = await services.subscriptions.allSubscriptions(page);
      return paged(page, rows, count, 'Subscriptions fetched.');
    },
  );
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  Envelope,
  IdParams,
  MailingListQuery,
  MessageOnly,
  PagedEnvelope,
  SubscribeInput,
  Subscriber,
  UnsubscribeParams,
} from '@afrofx/shared';
import { Type } from '@sinclair/typebox';
import { messageOnly, paged, pageOf } from '../../http';
import type { SubscribersService } from './subscribers.service';
import { LIMITS } from '../../limits';
import { subscriberOfUnsubscribeToken, UNSUBSCRIBE_LINK_INVALID } from './unsubscribe-token';

/** What app.ts hands these routes. */
export interface SubscribersRoutesOptions {
  services: { subscribers: SubscribersService };
  runtime: { config: { jwtSecret: string } };
}

export const subscribersRoutes: FastifyPluginAsyncTypebox<SubscribersRoutesOptions> = async (
  app,
  { services, runtime },
) => {
  app.post(
    '/user/create_email_sub',
    {
      preHandler: app.limit(LIMITS.subscribe),
      schema: {
        tags: ['Public'],
        summary: 'Subscribe an e-mail address to daily rates',
        body: SubscribeInput,
        description:
          'Answers the same for every address, new, unconfirmed or confirmed, so the call tells no one who subscribes.',
        response: { 200: MessageOnly },
      },
    },
    async (request) => {
      await services.subscribers.subscribe(request.body.email, () =>
        app.firstMailInWindow(request, 'subscription'),
      );
      return messageOnly(
        'Thanks for subscribing! Check your e-mail for a link to confirm your subscription.',
      );
    },
  );

  app.post(
    '/user/confirmation/:id',
    {
      config: {
        invalidLink: { fields: ['id'], message: 'This confirmation link is not valid or has expired.' },
      },
      schema: {
        tags: ['Public'],
        summary: 'Confirm a mailing-list subscription',
        params: IdParams,
        response: { 200: MessageOnly },
      },
    },
    async (request) => {
      const { alreadyActive } = await services.subscribers.confirm(request.params.id);
      return messageOnly(
        alreadyActive
          ? 'Your subscription has already been activated.'
          : 'Your subscription has been activated.',
      );
    },
  );

  // RFC 8058: a mail client's one-click unsubscribe POSTs the form `List-Unsubscribe=One-Click`; the token in the
  // URL says who, so the form itself is accepted and not read.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => done(null, body),
  );
  // The link in the mail opens the web page, whose button POSTs here, and a mail client's one-click POSTs here too.
  // Never on GET: mail scanners fetch the URLs of a message's headers by themselves (RFC 8058 §3.2).
  app.post(
    '/user/unsubscribe/:token',
    {
      config: { invalidLink: { fields: ['token'], message: UNSUBSCRIBE_LINK_INVALID } },
      schema: {
        tags: ['Public'],
        summary: 'Unsubscribe an address from daily rates (the link and one-click of every rates mail)',
        params: UnsubscribeParams,
        response: { 200: MessageOnly },
      },
    },
    async (request) => {
      const subscriberId = subscriberOfUnsubscribeToken(runtime.config.jwtSecret, request.params.token);
      const { alreadyInactive } = await services.subscribers.unsubscribe(subscriberId);
      return messageOnly(
        alreadyInactive
          ? 'This address is already unsubscribed from daily rates.'
          : 'You have been unsubscribed. You will get no more daily rates e-mails.',
      );
    },
  );

  const admin = { tags: ['Admin'], security: [{ bearerAuth: [] }] };
  // The role is checked before the body is read: a developer gets 403, never a validation message.
  const adminOnly = { onRequest: app.requireAdmin };

  app.get(
    '/admin/fetch_mailing_list',
    {
      ...adminOnly,
      schema: {
        ...admin,
        summary: 'Mailing list or API waiting list',
        querystring: MailingListQuery,
        response: { 200: PagedEnvelope(Subscriber) },
      },
    },
    async (request) => {
      const page = pageOf(request.query.page);
      const { rows, count } = await services.subscribers.list(
        request.query.mail_type ?? 'mailing_list',
        page,
      );
      return paged(page, rows, count, 'Mailing list fetched.');
    },
  );

  app.delete(
    '/admin/remove_email/:id',
    {
      ...adminOnly,
      schema: { ...admin, summary: 'Remove an address', params: IdParams, response: { 200: MessageOnly } },
    },
    async (request) => {
      await services.subscribers.remove(request.params.id);
      return messageOnly('Email removed successfully.');
    },
  );

  app.post(
    '/admin/send_rate_to_mail',
    {
      ...adminOnly,
      schema: {
        ...admin,
        summary: 'E-mail the latest rates to every active subscriber',
        response: { 202: Envelope(Type.Object({ recipients: Type.Integer() })) },
      },
    },
    async (request, reply) => {
      const recipients = await services.subscribers.startRatesMailing(request.admin!.id);
      return reply
        .status(202)
        .send({ data: { recipients }, message: `Rates mail is being sent to ${recipients} subscriber(s).` });
    },
  );
};

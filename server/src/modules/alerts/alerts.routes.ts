import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AlertManageItemParams,
  AlertManageParams,
  AlertManagement,
  AlertPauseInput,
  DailyMailPreferences,
  Envelope,
  MessageOnly,
  RateAlertInput,
} from '@afrofx/shared';
import { Type } from '@sinclair/typebox';
import { messageOnly, ok } from '../../http';
import { LIMITS } from '../../limits';
import type { SubscribersService } from '../subscribers/subscribers.service';
import { ALERT_LINK_INVALID, alertOfConfirmToken, emailOfManageToken, manageToken } from './alert-links';
import type { AlertsService } from './alerts.service';

/** What app.ts hands these routes. */
export interface AlertsRoutesOptions {
  services: { alerts: AlertsService; subscribers: SubscribersService };
  runtime: { config: { jwtSecret: string } };
}

export const alertsRoutes: FastifyPluginAsyncTypebox<AlertsRoutesOptions> = async (
  app,
  { services, runtime },
) => {
  const secret = runtime.config.jwtSecret;
  const invalidLink = { invalidLink: { fields: ['token'], message: ALERT_LINK_INVALID } };
  const tags = ['Public'];

  app.post(
    '/user/alerts',
    {
      preHandler: app.limit(LIMITS.subscribe),
      schema: {
        tags,
        summary: 'Ask for a rate alert by e-mail (double opt-in: live once its mailed link is opened)',
        body: RateAlertInput,
        response: { 200: MessageOnly },
      },
    },
    async (request) => {
      await services.alerts.createForEmail(request.body);
      return messageOnly('Check your e-mail for a link to confirm your alert.');
    },
  );

  app.post(
    '/user/alerts/confirm/:token',
    {
      config: invalidLink,
      schema: {
        tags,
        summary: 'Confirm a rate alert (the link of its confirmation mail)',
        params: AlertManageParams,
        response: { 200: Envelope(Type.Object({ manageToken: Type.String() })) },
      },
    },
    async (request) => {
      const alertId = alertOfConfirmToken(secret, request.params.token);
      const { email, alreadyConfirmed } = await services.alerts.confirm(alertId);
      return ok(
        { manageToken: manageToken(secret, email) },
        alreadyConfirmed ? 'Your alert was already confirmed.' : 'Your alert is confirmed.',
      );
    },
  );

  app.get(
    '/user/alerts/:token',
    {
      config: invalidLink,
      schema: {
        tags,
        summary: "An address's alerts and daily-mail preferences (its signed manage link)",
        params: AlertManageParams,
        response: { 200: Envelope(AlertManagement) },
      },
    },
    async (request) => {
      const email = emailOfManageToken(secret, request.params.token);
      const [alerts, daily] = await Promise.all([
        services.alerts.listForEmail(email),
        services.subscribers.dailyPreferences(email),
      ]);
      return ok({ email, alerts, daily }, 'Alerts fetched.');
    },
  );

  app.put(
    '/user/alerts/:token/daily',
    {
      config: invalidLink,
      schema: {
        tags,
        summary: 'Choose the bases and markets of the daily rates mail (empty: all)',
        params: AlertManageParams,
        body: DailyMailPreferences,
        response: { 200: MessageOnly },
      },
    },
    async (request) => {
      const email = emailOfManageToken(secret, request.params.token);
      await services.subscribers.setDailyPreferences(email, request.body);
      return messageOnly('Your daily mail preferences are saved.');
    },
  );

  app.put(
    '/user/alerts/:token/:id',
    {
      config: invalidLink,
      schema: {
        tags,
        summary: 'Pause or resume an alert',
        params: AlertManageItemParams,
        body: AlertPauseInput,
        response: { 200: MessageOnly },
      },
    },
    async (request) => {
      const email = emailOfManageToken(secret, request.params.token);
      await services.alerts.setPaused(email, request.params.id, request.body.paused);
      return messageOnly(request.body.paused ? 'Alert paused.' : 'Alert resumed.');
    },
  );

  app.delete(
    '/user/alerts/:token/:id',
    {
      config: invalidLink,
      schema: {
        tags,
        summary: 'Remove an alert',
        params: AlertManageItemParams,
        response: { 200: MessageOnly },
      },
    },
    async (request) => {
      const email = emailOfManageToken(secret, request.params.token);
      await services.alerts.removeForEmail(email, request.params.id);
      return messageOnly('Alert removed.');
    },
  );

  // RFC 8058: the mail client's one-click POSTs the form `List-Unsubscribe=One-Click`; the token says who.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, next) => next(null, body),
  );
  app.post(
    '/user/alerts/:token/unsubscribe',
    {
      config: invalidLink,
      schema: {
        tags,
        summary: 'Remove every alert of an address (one-click unsubscribe of alert mails)',
        params: AlertManageParams,
        response: { 200: MessageOnly },
      },
    },
    async (request) => {
      const email = emailOfManageToken(secret, request.params.token);
      const removed = await services.alerts.removeForEmail(email);
      return messageOnly(removed > 0 ? 'Your alerts are removed.' : 'This address has no alerts.');
    },
  );
};

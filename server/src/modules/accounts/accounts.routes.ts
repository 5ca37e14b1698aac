import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ChangePasswordInput,
  DeveloperSession,
  Envelope,
  MessageOnly,
  RequestResetInput,
  ResetPasswordInput,
  SigninInput,
  SignupInput,
  TokenParams,
} from '@afrofx/shared';
import { Type } from '@sinclair/typebox';
import { BUSY_ANSWERS, messageOnly, ok } from '../../http';
import type { AccountsService } from './accounts.service';
import { LIMITS } from '../../limits';
import { ACTIVATION_LINK_INVALID, RESET_LINK_INVALID } from './accounts.service';
import { deviceCookies } from '../../device-cookies';

const tags = ['Account'];

/** What app.ts hands these routes. */
export interface AccountsRoutesOptions {
  services: { accounts: AccountsService };
  runtime: { config: { jwtSecret: string; publicUrl: string } };
}

export const accountsRoutes: FastifyPluginAsyncTypebox<AccountsRoutesOptions> = async (
  app,
  { services, runtime },
) => {
  const devices = deviceCookies(app, {
    secret: runtime.config.jwtSecret,
    secure: runtime.config.publicUrl.startsWith('https:'),
  });

  app.post(
    '/account/signup',
    {
      preHandler: app.limit(LIMITS.signup),
      schema: {
        tags,
        summary:
          'Create a developer account (mails an activation link; the answer is the same for a taken address)',
        body: SignupInput,
        response: { 201: MessageOnly, ...BUSY_ANSWERS },
      },
    },
    async (request, reply) => {
      await services.accounts.signup(request.body, () => app.firstMailInWindow(request, 'signup'));
      return reply
        .status(201)
        .send(messageOnly('Thanks for signing up. Kindly check your mail for activation.'));
    },
  );

  app.get(
    '/account/activate_account/:token',
    {
      preHandler: app.limit(LIMITS.link),
      config: { invalidLink: { fields: ['token'], message: ACTIVATION_LINK_INVALID } },
      schema: {
        tags,
        summary: 'Activate an account from the e-mailed link',
        params: TokenParams,
        response: { 200: MessageOnly },
      },
    },
    async (request) => {
      return (await services.accounts.activate(request.params.token)) === 'already'
        ? messageOnly('Your account is already activated. You can sign in.')
        : messageOnly('Your account has been activated. You can now sign in.');
    },
  );

  app.post(
    '/account/signin',
    {
      preHandler: app.limit(LIMITS.signin),
      schema: {
        tags,
        summary: 'Sign a developer in',
        description:
          'A browser that signs in gets a device cookie: failed sign-ins from other devices never slow it down.',
        body: SigninInput,
        response: { 200: Envelope(DeveloperSession), ...BUSY_ANSWERS },
      },
    },
    async (request, reply) => {
      const { email, password } = request.body;
      const { user, tokenVersion } = await services.accounts.signin(
        email,
        password,
        devices.known(request, 'developer', email),
      );
      devices.remember(reply, 'developer', email);
      const token = app.startSession(reply, { sub: user._id, role: 'developer', ver: tokenVersion });
      return ok({ token, user }, 'Signed in successfully.');
    },
  );

  app.post(
    '/account/signout',
    {
      schema: {
        tags,
        summary:
          'Sign the browser out (clears the session cookie; a Bearer token stays valid until it expires)',
        response: { 200: MessageOnly },
      },
    },
    // No session needed: an expired cookie must be clearable too.
    async (_request, reply) => {
      app.endSession(reply, 'developer');
      return messageOnly('You are signed out.');
    },
  );

  app.post(
    '/account/resend_activation',
    {
      // The same mail as a sign-up's, so the same limits per client and address.
      preHandler: app.limit(LIMITS.signup),
      schema: {
        tags,
        summary: 'Mail a fresh activation link (the answer is the same for any address)',
        body: RequestResetInput,
        response: { 200: MessageOnly },
      },
    },
    async (request) => {
      await services.accounts.resendActivation(request.body.email, () =>
        app.firstMailInWindow(request, 'activation-resend'),
      );
      return messageOnly(
        'If this address has an account waiting for activation, a new activation link is on its way.',
      );
    },
  );

  app.post(
    '/account/request_reset_password',
    {
      preHandler: app.limit(LIMITS.resetRequest),
      schema: {
        tags,
        summary: 'Mail a password reset link',
        body: RequestResetInput,
        response: { 200: MessageOnly },
      },
    },
    async (request) => {
      await services.accounts.requestPasswordReset(request.body.email, () =>
        app.firstMailInWindow(request, 'password-reset'),
      );
      return messageOnly('If an account exists for this e-mail, a password reset link has been sent to it.');
    },
  );

  app.get(
    '/account/reset_password/:token',
    {
      preHandler: app.limit(LIMITS.link),
      config: { invalidLink: { fields: ['token'], message: RESET_LINK_INVALID } },
      schema: {
        tags,
        summary: 'Whether an e-mailed password reset link can still be used (it is not used up)',
        params: TokenParams,
        response: { 200: MessageOnly },
      },
    },
    async (request) => {
      await services.accounts.checkResetLink(request.params.token);
      return messageOnly('This link is good: choose a new password.');
    },
  );

  app.post(
    '/account/reset_password',
    {
      preHandler: app.limit(LIMITS.link),
      config: { invalidLink: { fields: ['code'], message: RESET_LINK_INVALID } },
      schema: {
        tags,
        summary: 'Set a new password with the e-mailed code',
        body: ResetPasswordInput,
        response: { 200: MessageOnly },
      },
    },
    async (request) => {
      await services.accounts.resetPassword(request.body.code, request.body.password);
      return messageOnly('Your password has been reset. You can now sign in with it.');
    },
  );

  app.post(
    '/account/change_password',
    {
      preHandler: app.requireDeveloper,
      schema: {
        tags,
        security: [{ bearerAuth: [] }],
        summary:
          'Change the password (ends every other session; answers a fresh token and session cookie for this one)',
        body: ChangePasswordInput,
        response: { 200: Envelope(Type.Object({ token: Type.String() })) },
      },
    },
    async (request, reply) => {
      const developerId = request.developer!.id;
      const tokenVersion = await services.accounts.changePassword(
        developerId,
        request.body.oldPassword,
        request.body.newPassword,
      );
      const token = app.startSession(reply, { sub: developerId, role: 'developer', ver: tokenVersion });
      return ok({ token }, 'Your password has been changed.');
    },
  );
};

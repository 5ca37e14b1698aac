import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  AdminSession,
  AdminUser,
  ChangePasswordInput,
  Credentials,
  Envelope,
  IdParams,
  MessageOnly,
  PagedEnvelope,
  PageQuery,
  SignInLockInput,
} from '@afrofx/shared';
import { BUSY_ANSWERS, messageOnly, ok, paged, pageOf } from '../../http';
import type { AdminUsersService } from './admin-users.service';
import { LIMITS } from '../../limits';
import { deviceCookies } from '../../device-cookies';

/** What app.ts hands these routes. */
export interface AdminUsersRoutesOptions {
  services: { adminUsers: AdminUsersService };
  runtime: { config: { jwtSecret: string; publicUrl: string } };
}

export const adminUsersRoutes: FastifyPluginAsyncTypebox<AdminUsersRoutesOptions> = async (
  app,
  { services, runtime },
) => {
  const devices = deviceCookies(app, {
    secret: runtime.config.jwtSecret,
    secure: runtime.config.publicUrl.startsWith('https:'),
  });

  app.post(
    '/admin/authenticate',
    {
      preHandler: app.limit(LIMITS.adminSignin),
      schema: {
        tags: ['Admin'],
        summary: 'Sign an admin in',
        body: Credentials,
        response: { 200: Envelope(AdminSession), ...BUSY_ANSWERS },
      },
    },
    async (request, reply) => {
      const { email, password } = request.body;
      const admin = await services.adminUsers.authenticate(
        email,
        password,
        devices.known(request, 'admin', email),
      );
      devices.remember(reply, 'admin', email);
      const token = app.startSession(reply, { sub: admin.id, role: 'admin', ver: admin.tokenVersion });
      return ok({ token, user: { _id: admin.id, email: admin.email } }, 'Signed in successfully.');
    },
  );

  app.post(
    '/admin/signout',
    {
      schema: {
        tags: ['Admin'],
        summary: 'Sign the admin console out (clears the session cookie)',
        response: { 200: MessageOnly },
      },
    },
    // No session needed: an expired cookie must be clearable too.
    async (_request, reply) => {
      app.endSession(reply, 'admin');
      return messageOnly('You are signed out.');
    },
  );

  const admin = { tags: ['Admin'], security: [{ bearerAuth: [] }] };
  app.post(
    '/admin/lift_sign_in_lock',
    {
      onRequest: app.requireAdmin,
      schema: {
        ...admin,
        summary:
          "Lift the sign-in slow-down on an address (an admin locked out by another's guesses is let in by a second admin)",
        body: SignInLockInput,
        response: { 200: MessageOnly },
      },
    },
    async (request) => {
      await services.adminUsers.liftSignInLock(request.body.email);
      return messageOnly('The sign-in lock on this address is lifted.');
    },
  );

  app.post(
    '/admin/create_user',
    {
      onRequest: app.requireAdmin,
      schema: {
        ...admin,
        summary: 'Create an admin',
        body: Credentials,
        response: { 201: Envelope(AdminUser) },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          ok(
            await services.adminUsers.createAdmin(request.body.email, request.body.password),
            'Account successfully created.',
          ),
        ),
  );

  app.post(
    '/admin/change_password',
    {
      onRequest: app.requireAdmin,
      schema: {
        ...admin,
        summary:
          "Change the signed-in admin's password (ends every other session; answers a fresh token and session cookie for this one)",
        body: ChangePasswordInput,
        response: { 200: Envelope(Type.Object({ token: Type.String() })) },
      },
    },
    async (request, reply) => {
      const adminId = request.admin!.id;
      const tokenVersion = await services.adminUsers.changePassword(
        adminId,
        request.body.oldPassword,
        request.body.newPassword,
      );
      const token = app.startSession(reply, { sub: adminId, role: 'admin', ver: tokenVersion });
      return ok({ token }, 'Your password has been changed.');
    },
  );

  app.get(
    '/admin/fetch_users',
    {
      onRequest: app.requireAdmin,
      schema: {
        ...admin,
        summary: 'Every account, admins and developers, newest first',
        querystring: PageQuery,
        response: { 200: PagedEnvelope(AdminUser) },
      },
    },
    async (request) => {
      const page = pageOf(request.query.page);
      const { rows, count } = await services.adminUsers.list(page);
      return paged(page, rows, count, 'Users fetched.');
    },
  );

  const accountActions = [
    [
      'enable_account',
      'Enable an account',
      (id: string) => services.adminUsers.setStatus(id, 'active'),
      'Account successfully enabled.',
    ],
    [
      'disable_account',
      'Disable an account (ends its sessions and API keys)',
      (id: string, actorId: string) => services.adminUsers.setStatus(id, 'disabled', actorId),
      'Account successfully disabled.',
    ],
    [
      'enable_premium_customer',
      'Make a premium (super) customer',
      (id: string) => services.adminUsers.setState(id, 'premium_customer'),
      'The account is now a super customer.',
    ],
    [
      'enable_normal_customer',
      'Make a normal customer',
      (id: string) => services.adminUsers.setState(id, 'normal_customer'),
      'The account is no longer a super customer.',
    ],
  ] as const;
  for (const [path, summary, action, message] of accountActions) {
    app.put(
      `/admin/${path}/:id`,
      {
        onRequest: app.requireAdmin,
        schema: { ...admin, summary, params: IdParams, response: { 200: MessageOnly } },
      },
      async (request) => {
        await action(request.params.id, request.admin!.id);
        return messageOnly(message);
      },
    );
  }
};

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
} from '@afrofx/shared';
import { done, ok, paged, pageOf } from '../../http';
import type { AdminUsersService } from './admin-users.service';
import { LIMITS } from '../../plugins/limits';

/** What app.ts hands these routes. */
export interface AdminUsersRoutesOptions {
  services: { adminUsers: AdminUsersService };
}

export const adminUsersRoutes: FastifyPluginAsyncTypebox<AdminUsersRoutesOptions> = async (
  app,
  { services },
) => {
  app.post(
    '/admin/authenticate',
    {
      preHandler: app.limit(LIMITS.adminSignin),
      schema: {
        tags: ['Admin'],
        summary: 'Sign an admin in',
        body: Credentials,
        response: { 200: Envelope(AdminSession) },
      },
    },
    async (request, reply) => {
      const admin = await services.adminUsers.authenticate(request.body.email, request.body.password);
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
      return done('You are signed out.');
    },
  );

  const admin = { tags: ['Admin'], security: [{ bearerAuth: [] }] };
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
        return done(message);
      },
    );
  }
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AdminSession, Credentials, Envelope } from '@afrofx/shared';
import { ok } from '../../http';
import type { RouteOptions } from '../../app';

export const adminUsersRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  app.post(
    '/admin/authenticate',
    {
      config: { rateLimit: { max: 10, timeWindow: '1 minute' } },
      schema: { tags: ['Admin'], summary: 'Sign an admin in', body: Credentials, response: { 200: Envelope(AdminSession) } },
    },
    async (request) => {
      const admin = await services.adminUsers.authenticate(request.body.email, request.body.password);
      const token = app.issueToken({ sub: admin.id, role: 'admin', ver: admin.tokenVersion });
      return ok({ token, user: { _id: admin.id, email: admin.email } }, 'Signed in successfully.');
    },
  );
};

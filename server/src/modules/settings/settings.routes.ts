import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AdminSettings, AdminSettingsPatch, Envelope } from '@afrofx/shared';
import { ok } from '../../http';
import type { SettingsService } from './settings.service';

/** What app.ts hands these routes. */
export interface SettingsRoutesOptions {
  services: { settings: SettingsService };
}

const schema = { tags: ['Admin'], security: [{ bearerAuth: [] }] };

export const settingsRoutes: FastifyPluginAsyncTypebox<SettingsRoutesOptions> = async (app, { services }) => {
  app.get(
    '/admin/settings',
    {
      onRequest: app.requireAdmin,
      schema: {
        ...schema,
        summary: 'The admin settings, defaults filled in',
        response: { 200: Envelope(AdminSettings) },
      },
    },
    async () => ok(await services.settings.get(), 'Settings fetched.'),
  );

  app.put(
    '/admin/settings',
    {
      onRequest: app.requireAdmin,
      schema: {
        ...schema,
        summary: 'Change some admin settings; the others keep their values',
        body: AdminSettingsPatch,
        response: { 200: Envelope(AdminSettings) },
      },
    },
    async (request) => {
      const { before, after } = await services.settings.update(request.body, request.admin!.id);
      request.activity = { before, after };
      return ok(after, 'Settings saved.');
    },
  );
};

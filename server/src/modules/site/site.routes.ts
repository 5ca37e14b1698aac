import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, SiteContact } from '@afrofx/shared';
import { ok } from '../../http';
import type { Config } from '../../config';

/** What app.ts hands these routes. */
export interface SiteRoutesOptions {
  runtime: { config: Pick<Config, 'supportEmail' | 'paymentProvider'> };
}

export const siteRoutes: FastifyPluginAsyncTypebox<SiteRoutesOptions> = async (app, { runtime }) => {
  app.get(
    '/user/site_contact',
    {
      schema: {
        tags: ['Public'],
        summary: 'The support address the site shows (SUPPORT_EMAIL), and whether the site is a demo',
        response: { 200: Envelope(SiteContact) },
      },
    },
    async () =>
      ok(
        { supportEmail: runtime.config.supportEmail, demo: runtime.config.paymentProvider === 'sandbox' },
        'Site contact fetched.',
      ),
  );
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, SiteContact } from '@afrofx/shared';
import { ok } from '../../http';
import type { PaymentProviderName, TelegramSettings } from '../../settings';

/** The settings the site's contact answer is made of. */
export interface SiteContactSettings {
  supportEmail: string;
  paymentProvider: PaymentProviderName;
  telegram: TelegramSettings | undefined;
}

/** What the site shows of the server's configuration; a server-rendered page carries it too. */
export const siteContact = (config: SiteContactSettings): SiteContact => ({
  supportEmail: config.supportEmail,
  demo: config.paymentProvider === 'sandbox',
  telegramBot: config.telegram?.link ?? null,
});

/** What app.ts hands these routes. */
export interface SiteRoutesOptions {
  runtime: { config: SiteContactSettings };
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
    async () => ok(siteContact(runtime.config), 'Site contact fetched.'),
  );
};

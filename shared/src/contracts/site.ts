import { Type, type Static } from '@sinclair/typebox';

/** How visitors reach the people behind the site (SUPPORT_EMAIL), and whether it is a demo. */
export const SiteContact = Type.Object({
  supportEmail: Type.String({ format: 'email', examples: ['support@afrofx.example'] }),
  demo: Type.Boolean({
    description: 'True when payments go to the sandbox provider (PAYMENT_PROVIDER=sandbox): no money moves',
  }),
  telegramBot: Type.Union([Type.String({ format: 'uri' }), Type.Null()], {
    description: "The Telegram bot's t.me link, or null when the bot is off (no TELEGRAM_BOT_TOKEN)",
  }),
});
export type SiteContact = Static<typeof SiteContact>;

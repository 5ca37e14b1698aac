import { Type, type Static } from '@sinclair/typebox';

/** How visitors reach the people behind the site (SUPPORT_EMAIL). */
export const SiteContact = Type.Object({
  supportEmail: Type.String({ format: 'email', examples: ['support@afrofx.example'] }),
});
export type SiteContact = Static<typeof SiteContact>;

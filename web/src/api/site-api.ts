import type { ApiEnvelope, SiteContact } from '@afrofx/shared';
import { api } from './base-api';

// Shared by the public site (legal pages) and the developer portal (E-mail support).
const siteApi = api.injectEndpoints({
  endpoints: (build) => ({
    fetchSiteContact: build.query<SiteContact, void>({
      query: () => 'user/site_contact',
      transformResponse: (response: ApiEnvelope<SiteContact>) => response.data,
      // The address changes only with the server's configuration.
      keepUnusedDataFor: 3600,
    }),
  }),
});

/** Puts a server-rendered page's site contact into the cache, so that the demo banner is drawn with the page. */
export const seedSiteContact = (contact: SiteContact) =>
  siteApi.util.upsertQueryEntries([{ endpointName: 'fetchSiteContact', arg: undefined, value: contact }]);

/** The Telegram bot's link, or null when the bot is off; undefined until it has loaded (no link is shown then). */
export function useTelegramBotUrl(): string | null | undefined {
  return siteApi.useFetchSiteContactQuery().data?.telegramBot;
}

/** The support address the server is configured with (SUPPORT_EMAIL); undefined until it has loaded. */
export function useSupportEmail(): string | undefined {
  return siteApi.useFetchSiteContactQuery().data?.supportEmail;
}

/** True when the server takes payments in the sandbox (no money moves); undefined until it has loaded. */
export function useIsDemo(): boolean | undefined {
  return siteApi.useFetchSiteContactQuery().data?.demo;
}

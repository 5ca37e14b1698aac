/** Places outside the app that the public site links to. */
export const TWITTER_BOT_URL = 'https://twitter.com/afrofx_rates';
export const DEMO_BOOKING_URL = 'https://calendly.com/afrofx/30min';
/** The API reference served beside the API (DESIGN §5). */
export const API_DOCS_URL = '/docs';

// A public page rendered on the server carries the data it was rendered from, so that the app's first
// render in the browser draws exactly the server's HTML and hydrates it instead of drawing the page again.
import type { Market } from './constants';
import type { PagedResponse } from './contracts/common';
import type { Status } from './contracts/health';
import type { Plan } from './contracts/plans';
import type { Quote } from './contracts/rates';
import type { SiteContact } from './contracts/site';

/** The id of the `<script type="application/json">` that holds a server-rendered page's PageSeed. */
export const PAGE_SEED_ID = 'afrofx-page-seed';

/** The zone a server-rendered page writes its times in; the browser switches to the viewer's own once hydrated. */
export const PAGE_SEED_TIME_ZONE = 'UTC';

export interface PageSeed {
  /** When the page was rendered (ISO 8601): "today" and every time shown are judged against it until hydrated. */
  renderedAt: string;
  /** Each market's rates as GET /v1/user/fetch_rates/:market answered them at `renderedAt`. */
  rates: Partial<Record<Market, Quote[]>>;
  /**
   * GET /v1/user/site_contact's answer: the demo banner is drawn with the page, not pushed in after it, and the
   * Telegram bot is shown only when it runs.
   */
  siteContact?: SiteContact;
  /** The site's own address (PUBLIC_URL), which the API page's example request names. */
  origin?: string;
  /** The plans on sale as GET /v1/account/fetch_plans?page=1 answered them, on the API page. */
  plans?: PagedResponse<Plan>;
  /** GET /v1/status's answer, on the status page. */
  status?: Status;
}

/** The app's markup (the inside of `#root`) for a public URL, drawn from `seed`. */
export type RenderPage = (url: string, seed: PageSeed) => Promise<string>;

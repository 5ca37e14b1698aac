// The public pages as HTML with today's rates in them: a crawler, a link preview or a phone whose script
// is still loading reads the numbers before any script runs. The body is the app's own markup (web/src/entry-server),
// which the app's script hydrates from the data embedded beside it. Each page is rendered once per rates snapshot
// (and day): the snapshot's version changes with any rate, and the change feed makes every process load a new
// snapshot at once (rates-snapshot.ts), which drops this cache on the next request.
import { brotliCompressSync, constants as zlib } from 'node:zlib';
import escapeHtml from 'escape-html';
import {
  BASE_DISPLAY,
  DEFAULT_MARKET,
  formatNumber,
  formatUtcDate,
  MARKET_LABELS,
  MARKET_TABS,
  MARKETS,
  PAGE_SEED_ID,
  pairName,
  pairPath,
  type Base,
  type PagedResponse,
  type PageSeed,
  type Pair,
  type Plan,
  type SiteContact,
  type Status,
  type RenderPage,
  type QuoteWithoutAge,
  withFreshness,
} from '@afrofx/shared';
import type { RatesSnapshotSource } from '../rates/rates-snapshot';
import { rateCardPng } from './rate-card';
import { HOME_PAIR, homeStructuredData, pairStructuredData, quoteOf } from './structured-data';

export interface RenderedPage {
  html: string;
  /** The same page, brotli-compressed once when rendered. */
  brotli: Buffer;
}

interface PageHead {
  title: string;
  description: string;
  path: string;
  /** schema.org objects for the page's rates. */
  structuredData?: object[];
  image?: string;
  /** A page that does not exist: kept out of the index, with no canonical address. */
  notFound?: boolean;
}

/** Pages without a pair of their own, with the heading and copy the app shows there. */
const SITE_PAGES: Record<string, { title: string; heading: string; lead: string }> = {
  '/': {
    title: 'Today’s exchange rates',
    heading: 'Today’s exchange rates',
    lead: 'Naira, Kenyan shilling, rand and cedi, updated every day.',
  },
  '/rate_calculator': {
    title: 'Rate calculator',
    heading: 'Rate calculator',
    lead: 'Convert between the dollar, euro, pound and Canadian dollar and the naira, shilling, rand and cedi at today’s rates.',
  },
  '/rate_history': {
    title: 'Rate history',
    heading: 'Rate history',
    lead: 'How the bank, cash and transfer rates moved, day by day.',
  },
};

export const SITE_PAGE_PATHS = Object.keys(SITE_PAGES);

/** The other public pages in the sitemap: drawn on the server too, each from the data it shows. */
const APP_PAGES: Record<string, { title: string; description: string; data?: 'plans' | 'status' }> = {
  '/api': {
    title: 'Forex API',
    description:
      'African exchange rates as clean JSON: bank, cash and transfer rates for NGN, KES, ZAR and GHS, with yearly plans and their prices.',
    data: 'plans',
  },
  '/status': {
    title: 'Service status',
    description: 'How fresh each market’s rates are, and whether AfroFX is healthy.',
    data: 'status',
  },
  '/company/privacy': { title: 'Privacy policy', description: 'What AfroFX collects, why, and your rights.' },
  '/company/terms_of_use': {
    title: 'Terms of use',
    description: 'The terms of using the AfroFX site, its rates and its API.',
  },
};

export const APP_PAGE_PATHS = Object.keys(APP_PAGES);

export const RATES_UNAVAILABLE = 'Rates are temporarily unavailable';

/** The pair's Open Graph / X card image. */
export const cardPath = (pair: Pair) => `${pairPath(pair)}/card.png`;

/** "₦1,539.00" */
const money = (base: Base, value: number) => `${BASE_DISPLAY[base].symbol}${formatNumber(value)}`;

// `</script>` inside the JSON would end the element: `<` is written as its JSON escape.
const jsonForScript = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

interface PageBody {
  /** What goes into `#root`. */
  markup: string;
  /** The data `markup` was rendered from, when it is the app's own (hydrated by the browser). */
  seed?: PageSeed;
}

/** Where the plans and the status pages' data come from: the same calls the browser makes. */
export interface AppPageData {
  plans: () => Promise<PagedResponse<Plan>>;
  status: () => Promise<Status>;
  siteContact: () => Promise<SiteContact>;
}

export function createPublicPages(options: {
  /** The built index.html: its scripts and styles stay, its title, description and root are the page's. */
  template: string;
  snapshot: RatesSnapshotSource;
  publicUrl: string;
  /**
   * The app's markup for a URL (web/src/entry-server.tsx, built into web/dist/server). Without it (a build without
   * the renderer) a page carries its head only and the browser draws it.
   */
  renderPage: RenderPage | undefined;
  /** When a rate counts as stale (STALE_AFTER_HOURS), as the rates API says. */
  staleAfterMs: number;
  data: AppPageData;
}) {
  const { template, snapshot, publicUrl, renderPage, staleAfterMs, data } = options;
  let cachedVersion = '';
  let cache = new Map<string, Promise<RenderedPage | Buffer>>();

  function document(head: PageHead, body: PageBody): string {
    const url = `${publicUrl}${head.path}`;
    const tags = [
      `<title>${escapeHtml(head.title)} · AfroFX</title>`,
      `<meta name="description" content="${escapeHtml(head.description)}" />`,
      head.notFound
        ? `<meta name="robots" content="noindex" />`
        : `<link rel="canonical" href="${escapeHtml(url)}" />`,
      `<meta property="og:type" content="website" />`,
      `<meta property="og:site_name" content="AfroFX" />`,
      `<meta property="og:title" content="${escapeHtml(head.title)}" />`,
      `<meta property="og:description" content="${escapeHtml(head.description)}" />`,
      `<meta property="og:url" content="${escapeHtml(url)}" />`,
      ...(head.image
        ? [
            `<meta property="og:image" content="${escapeHtml(head.image)}" />`,
            `<meta name="twitter:card" content="summary_large_image" />`,
            `<meta name="twitter:image" content="${escapeHtml(head.image)}" />`,
          ]
        : [`<meta name="twitter:card" content="summary" />`]),
      ...(head.structuredData?.length
        ? [`<script type="application/ld+json">${jsonForScript(head.structuredData)}</script>`]
        : []),
    ].join('\n    ');
    return template
      .replace(/<title>[^<]*<\/title>/, () => tags)
      .replace(/<meta\s+name="description"[^>]*>/, '')
      .replace(
        '<div id="root"></div>',
        () =>
          `<div id="root">${body.markup}</div>` +
          (body.seed
            ? `<script type="application/json" id="${PAGE_SEED_ID}">${jsonForScript(body.seed)}</script>`
            : ''),
      );
  }

  /**
   * The app's own markup for `path`, drawn from the rates as the API answers them now, followed by that data: the
   * browser's first render reads it and hydrates the markup (web/src/main.tsx).
   */
  async function app(
    path: string,
    rates: QuoteWithoutAge[],
    extra: Pick<PageSeed, 'plans' | 'status'> = {},
  ): Promise<PageBody> {
    if (!renderPage) return { markup: '' };
    const renderedAt = new Date();
    const quotes = withFreshness(rates, renderedAt.getTime(), staleAfterMs);
    const seed: PageSeed = {
      renderedAt: renderedAt.toISOString(),
      rates: Object.fromEntries(MARKETS.map((market) => [market, quotes.filter((q) => q.market === market)])),
      origin: publicUrl,
      siteContact: await data.siteContact(),
      ...extra,
    };
    return { markup: await renderPage(path, seed), seed };
  }

  async function sitePage(rates: QuoteWithoutAge[], path: string): Promise<string> {
    const page = SITE_PAGES[path]!;
    const dollarNaira = { base: 'naira', asset: 'dollar' } as const;
    const headline = quoteOf(rates, dollarNaira, DEFAULT_MARKET);
    const description = headline
      ? `${page.lead} Dollar to naira today: ${money('naira', headline.sell)} ${MARKET_LABELS[DEFAULT_MARKET].toLowerCase()} sell.`
      : page.lead;
    // The home page answers "dollar to naira today" too: its title carries the number a search result shows.
    const title =
      path === '/' && headline
        ? `${page.title}: dollar to naira ${money('naira', headline.sell)} ${MARKET_LABELS[DEFAULT_MARKET].toLowerCase()} sell`
        : page.title;
    const home = path === '/';
    return document(
      {
        title,
        description,
        path,
        ...(home && {
          structuredData: homeStructuredData(rates, publicUrl),
          image: `${publicUrl}${cardPath(HOME_PAIR)}`,
        }),
      },
      await app(path, rates),
    );
  }

  async function appPage(rates: QuoteWithoutAge[], path: string): Promise<string> {
    const page = APP_PAGES[path]!;
    const extra =
      page.data === 'plans'
        ? { plans: await data.plans() }
        : page.data === 'status'
          ? { status: await data.status() }
          : {};
    return document(
      { title: page.title, description: page.description, path },
      await app(path, rates, extra),
    );
  }

  async function notFoundPage(rates: QuoteWithoutAge[], path: string): Promise<string> {
    return document(
      {
        title: 'Page not found',
        description: 'This page does not exist. Today’s rates are one click away.',
        path,
        notFound: true,
      },
      await app(path, rates),
    );
  }

  async function pairPage(rates: QuoteWithoutAge[], pair: Pair): Promise<string> {
    const name = pairName(pair);
    const headline = quoteOf(rates, pair, DEFAULT_MARKET);
    const marketLabel = MARKET_LABELS[DEFAULT_MARKET].toLowerCase();
    const title = headline
      ? `${name} today: ${money(pair.base, headline.sell)} ${marketLabel} sell`
      : `${name} today`;
    const figures = MARKET_TABS.flatMap(({ market, label }) => {
      const quote = quoteOf(rates, pair, market);
      return quote
        ? [`${label} ${money(pair.base, quote.buy)} buy, ${money(pair.base, quote.sell)} sell`]
        : [];
    });
    const description = figures.length
      ? `${name} exchange rate today. ${figures.join('; ')}.`
      : `${name} exchange rate: no rate has been published yet.`;
    return document(
      {
        title,
        description,
        path: pairPath(pair),
        structuredData: pairStructuredData(rates, pair),
        image: `${publicUrl}${cardPath(pair)}`,
      },
      await app(pairPath(pair), rates),
    );
  }

  /** What was made from the current snapshot, until it changes: pages by path, cards by their path. */
  async function cached<T extends RenderedPage | Buffer>(
    key: string,
    make: (rates: QuoteWithoutAge[]) => Promise<T> | T,
  ): Promise<T> {
    const { rates, version: ratesVersion } = await snapshot.get();
    // A new day too: what a page calls today's rates, or not, is judged at render time (the seed's renderedAt).
    const version = `${ratesVersion}:${formatUtcDate(new Date())}`;
    if (version !== cachedVersion) {
      cache = new Map();
      cachedVersion = version;
    }
    let made = cache.get(key) as Promise<T> | undefined;
    if (!made) {
      // The promise is kept, so that requests arriving while a card is drawn wait for the one drawing.
      made = Promise.resolve(make(rates));
      cache.set(key, made);
      made.catch(() => cache.delete(key));
    }
    return made;
  }

  const unavailablePages = new Map<string, RenderedPage>();

  return {
    /**
     * The page at `path` without rates, for while the rates cannot be read (the database is down before the first
     * snapshot was loaded): the site's shell says so, and the app's script tries the rates again itself.
     */
    unavailable(path: string): RenderedPage {
      let page = unavailablePages.get(path);
      if (!page) {
        const html = document(
          {
            title: RATES_UNAVAILABLE,
            description: `${RATES_UNAVAILABLE}. Please try again in a minute.`,
            path,
          },
          {
            markup: `<main class="ssr-page"><h1>${RATES_UNAVAILABLE}</h1><p role="alert">We cannot read today’s rates right now. This page will show them again as soon as they are back; please try again in a minute.</p></main>`,
          },
        );
        page = { html, brotli: brotliCompressSync(html, { params: { [zlib.BROTLI_PARAM_QUALITY]: 9 } }) };
        unavailablePages.set(path, page);
      }
      return page;
    },

    /** The page at a site path (SITE_PAGE_PATHS) or of a pair, from the cache while no rate changed. */
    render(page: { path: string } | { pair: Pair }): Promise<RenderedPage> {
      const key = 'pair' in page ? pairPath(page.pair) : page.path;
      return cached(key, async (rates) => {
        const html = await ('pair' in page ? pairPage(rates, page.pair) : sitePage(rates, page.path));
        const brotli = brotliCompressSync(html, { params: { [zlib.BROTLI_PARAM_QUALITY]: 9 } });
        return { html, brotli };
      });
    },

    /**
     * A public page that shows what changes apart from the rates (the plans on sale, the service's health), drawn for
     * each request; or one that shows neither, drawn once per snapshot.
     */
    async renderAppPage(path: string): Promise<RenderedPage> {
      const fresh = APP_PAGES[path]!.data !== undefined;
      const make = async (rates: QuoteWithoutAge[]) => {
        const html = await appPage(rates, path);
        return {
          html,
          brotli: brotliCompressSync(html, { params: { [zlib.BROTLI_PARAM_QUALITY]: fresh ? 5 : 9 } }),
        };
      };
      return fresh ? make((await snapshot.get()).rates) : cached(path, make);
    },

    /**
     * The not-found page for `path`, drawn for each request: unknown addresses are countless, so none is kept. The
     * browser's router shows the same page once hydrated.
     */
    async renderNotFound(path: string): Promise<RenderedPage> {
      const html = await notFoundPage((await snapshot.get()).rates, path);
      return { html, brotli: brotliCompressSync(html, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } }) };
    },

    /** The pair's card image (PNG), drawn once per rates snapshot. */
    card(pair: Pair): Promise<Buffer> {
      return cached(cardPath(pair), (rates) => rateCardPng(pair, rates));
    },

    /** When each pair's rates last changed, for the sitemap. */
    async lastChanged(): Promise<Map<string, string>> {
      const { rates } = await snapshot.get();
      const latest = new Map<string, string>();
      for (const quote of rates) {
        const path = pairPath(quote);
        if ((latest.get(path) ?? '') < quote.updatedAt) latest.set(path, quote.updatedAt);
      }
      return latest;
    },
  };
}

export type PublicPages = ReturnType<typeof createPublicPages>;

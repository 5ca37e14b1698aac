// On `/` the rates come first. A visitor sees the dollar headline and the USD row without
// scrolling, on a 375×812 phone and on a 1280×800 desktop, with one "Last updated" stamp in their own time zone.
import { MARKETS } from '@afrofx/shared';
import type { Browser, Page } from 'playwright-core';
import { BASE_URL, launchBrowser, screenshot, siteRates } from './browser';

const SPEC_DATE_TIME = /[A-Z][a-z]{2}-\d{2}-\d{4} \d{1,2}:\d{2}:\d{2} (AM|PM)/;

/** When the newest rate was entered: the demo rates are entered as the server starts. */
async function newestRateTime(): Promise<number> {
  const times = await Promise.all(
    MARKETS.map(async (market) => (await siteRates(market)).map((rate) => Date.parse(rate.updatedAt))),
  );
  return Math.max(...times.flat());
}

/**
 * The home page in the viewer's zone. The page shows a market's rates only when one is from the viewer's today, so
 * the viewer's clock starts when the newest rate was entered: a run that crosses midnight in the viewer's zone
 * (23:00 UTC in Lagos) after the server started would otherwise find no rates today.
 */
async function openHome(browser: Browser, width: number, height: number, timezoneId: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height }, baseURL: BASE_URL, timezoneId });
  await context.clock.install({ time: await newestRateTime() });
  const page = await context.newPage();
  await page.goto('/');
  return page;
}

/** The element's box lies wholly inside the viewport, below the sticky site header that would cover it. */
async function expectInFirstViewport(
  page: Page,
  selector: ReturnType<Page['locator']>,
  width: number,
  height: number,
) {
  const box = await selector.boundingBox();
  const header = await page.getByRole('banner').boundingBox();
  expect(box).not.toBeNull();
  expect(header).not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(width);
  expect(box!.y).toBeGreaterThanOrEqual(header!.y + header!.height);
  expect(box!.y + box!.height).toBeLessThanOrEqual(height);
}

describe('rates first on the home page', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser.close();
  });

  it.each([
    [375, 812, 'Africa/Lagos', 'GMT+1'],
    [1280, 800, 'UTC', 'UTC'],
  ])(
    'shows the dollar headline and the USD row without scrolling at %i×%i (%s)',
    async (width, height, timezoneId, zoneName) => {
      const page = await openHome(browser, width, height, timezoneId);
      const panel = page.getByRole('tabpanel');
      const firstRow = panel.locator('table:not([aria-busy]) tbody tr').first();
      await firstRow.waitFor();
      expect(await page.evaluate(() => window.scrollY)).toBe(0);

      // The first row is the USD row (SPEC §2 order), and it is wholly visible.
      const usd = panel.getByRole('row').filter({ hasText: 'USD' });
      expect(await firstRow.textContent()).toBe(await usd.textContent());
      await expectInFirstViewport(page, firstRow, width, height);

      // The headline repeats the USD row's prices, on the default Cash tab.
      const headline = page.getByTestId('rates-headline');
      await expectInFirstViewport(page, headline, width, height);
      const headlineText = (await headline.textContent()) ?? '';
      expect(headlineText).toContain('1 USD in NGN, Cash market');
      const [buy, sell] = await Promise.all([
        usd.getByRole('cell').nth(1).textContent(),
        usd.getByRole('cell').nth(2).textContent(),
      ]);
      expect(headlineText).toContain(`BUY${buy}`);
      expect(headlineText).toContain(`SELL${sell}`);
      expect(headlineText).toMatch(/(Up|Down) .+ since the previous day|Unchanged since|No earlier day/);

      // One prominent "Last updated", in SPEC §9's format with the viewer's zone.
      const stamp = headline.locator('time');
      expect(await stamp.textContent()).toMatch(
        new RegExp(`^${SPEC_DATE_TIME.source} ${zoneName.replace('+', '\\+')}$`),
      );
      await expect(page.getByText(/Bank.+official bank rate.+BUY.+SELL/).isVisible()).resolves.toBe(true);

      await screenshot(page, `home-first-viewport-${width}`, false);
      await screenshot(page, `home-rates-first-${width}`);
      await page.context().close();
    },
  );

  it('keeps the headline in step with the tabs and the currency selector', async () => {
    const page = await openHome(browser, 375, 812, 'UTC');
    const headline = page.getByTestId('rates-headline');
    await headline.waitFor();
    await page.getByRole('tab', { name: 'Bank' }).click();
    await headline.getByText('1 USD in NGN, Bank market').waitFor();
    await page.getByRole('group', { name: 'Currency' }).getByText('KES', { exact: true }).click();
    await headline.getByText('1 USD in KES, Bank market').waitFor();
    const usd = page.getByRole('tabpanel').getByRole('row').filter({ hasText: 'USD' });
    const buy = (await usd.getByRole('cell').nth(1).textContent()) ?? '';
    expect(buy).toMatch(/^KSh/);
    expect(await headline.textContent()).toContain(`BUY${buy}`);
    await page.context().close();
  });

  it('keeps the marketing, the channels and the subscribe form below the rates', async () => {
    const page = await openHome(browser, 375, 812, 'UTC');
    await page.getByTestId('rates-headline').waitFor();
    const marketing = page.getByRole('heading', { name: /Know today’s rate before you change money/ });
    const subscribe = page.getByRole('heading', { name: 'Get the rates in your inbox' });
    const table = await page.getByRole('tabpanel').getByRole('table').boundingBox();
    const marketingBox = await marketing.boundingBox();
    const subscribeBox = await subscribe.boundingBox();
    expect(marketingBox!.y).toBeGreaterThan(table!.y + table!.height);
    expect(subscribeBox!.y).toBeGreaterThan(marketingBox!.y);
    await page.context().close();
  });
});

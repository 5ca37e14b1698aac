// The site's rate-history chart and the dashboard's request chart, both drawn by
// lightweight-charts, which only pages with a chart download.
import type { Browser, Page } from 'playwright-core';
import {
  DEMO_APP,
  DEVELOPER,
  developerSession,
  launchBrowser,
  openAsDeveloper,
  openPage,
  pickApp,
  screenshot,
  WIDTHS,
} from './browser';

/** Script files the page fetched that hold the charting library. */
function chartScripts(page: Page): string[] {
  const seen: string[] = [];
  page.on('response', (response) => {
    const url = response.url();
    if (url.endsWith('.js') && /lightweight-charts|TimeChart/i.test(url)) seen.push(url);
  });
  return seen;
}

/** Picks an option of a segmented control by clicking its label, as a visitor does (the radio itself is hidden). */
async function choose(page: Page, name: string): Promise<void> {
  await page
    .locator('label')
    .filter({ has: page.getByRole('radio', { name, exact: true }) })
    .click();
  // The choice goes through the URL before the radio re-renders checked: wait for it rather than read it at once.
  await page.getByRole('radio', { name, exact: true, checked: true }).waitFor();
}

/** Waits until the chart labelled `name` has drawn its canvas, and answers how many canvases it holds. */
async function drawnChart(page: Page, name: RegExp): Promise<number> {
  const chart = page.getByRole('figure', { name });
  await chart.locator('canvas').first().waitFor();
  return chart.locator('canvas').count();
}

describe('charts', () => {
  let browser: Browser;
  let session: string;

  beforeAll(async () => {
    browser = await launchBrowser();
    session = await developerSession(DEVELOPER.email, DEVELOPER.password);
  });

  afterAll(async () => {
    await browser.close();
  });

  describe.each(WIDTHS)('at $width px', ({ width, height }) => {
    it('opens the rate history of the chosen market and currency from the home page, in lines and candles', async () => {
      const page = await openPage(browser, width, height);
      const scripts = chartScripts(page);
      await page.goto('/');
      await page.getByRole('tab', { name: 'Bank' }).click();
      await choose(page, 'KES');
      await page.getByRole('tabpanel').getByRole('row').filter({ hasText: 'USD' }).waitFor();
      expect(scripts).toEqual([]);

      const link = page.getByRole('link', { name: /rate history charts/ });
      await link.scrollIntoViewIfNeeded();
      await screenshot(page, `home-rate-history-link-${width}`, false);
      await link.click();
      await page.waitForURL('**/rate_history?market=bank&base=kenyan-shilling');
      await page.getByRole('heading', { name: 'Rate history' }).waitFor();
      expect(await page.getByRole('tab', { name: 'Bank' }).getAttribute('aria-selected')).toBe('true');
      expect(await page.getByRole('radio', { name: 'KES' }).isChecked()).toBe(true);
      expect(await drawnChart(page, /^Bank USD\/KES, the last 30 days: buy from KSh/)).toBeGreaterThan(0);
      expect(scripts.length).toBeGreaterThan(0);
      const table = page.getByRole('table', { name: 'Bank USD/KES: last rate of each day (UTC)' });
      expect(await table.locator('tbody tr').count()).toBe(30);
      await screenshot(page, `rate-history-lines-${width}`);

      await choose(page, '90 days');
      await choose(page, 'Candles');
      await choose(page, 'Sell');
      await page.waitForURL(/days=90/);
      expect(
        await drawnChart(page, /^Bank USD\/KES, sell candles per day over the last 90 days/),
      ).toBeGreaterThan(0);
      // Three demo entries a day make real candles: high above low.
      const candles = page.getByRole('table', { name: 'Bank USD/KES: sell candles per day (UTC)' });
      const first = await candles.locator('tbody tr').first().locator('td').allTextContents();
      expect(Number(first[2]!.replace(/,/g, ''))).toBeGreaterThan(Number(first[3]!.replace(/,/g, '')));
      await screenshot(page, `rate-history-candles-${width}`);

      await choose(page, '1 year');
      expect(await drawnChart(page, /sell candles per week over the last 365 days/)).toBeGreaterThan(0);

      // A shared link opens the same chart.
      const shared = await openPage(browser, width, height);
      await shared.goto(page.url());
      expect(await drawnChart(shared, /sell candles per week over the last 365 days/)).toBeGreaterThan(0);
    });

    it("draws the dashboard's request chart with the same library", async () => {
      const page = await openAsDeveloper(browser, session, '/developer/apps', width, height);
      await pickApp(page, DEMO_APP);
      expect(await drawnChart(page, /^Requests per day from /)).toBeGreaterThan(0);
      // The hand-drawn SVG chart is gone.
      expect(await page.locator('svg[role="img"]').count()).toBe(0);
      await screenshot(page, `developer-dashboard-chart-${width}`);
    });
  });
});

// Issue 22: the public pages hold their rates before any script runs, and the app takes them over without a
// hydration warning in the console.
import { formatNumber } from '@afrofx/shared';
import type { Browser, ConsoleMessage } from 'playwright-core';
import { BASE_URL, launchBrowser, screenshot, siteRates } from './browser';

const PUBLIC_PAGES = ['/', '/rate_calculator', '/rate_history', '/rates/naira/dollar', '/rates/rand/euro'];
// React's words for a server/client mismatch, in development and (as error #418/#423/#425) in production builds.
const HYDRATION = /hydrat|did not match|server rendered HTML|Minified React error #(418|423|425)/i;

describe('public pages rendered on the server', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser.close();
  });

  it('shows the dollar to naira rates with JavaScript turned off', async () => {
    const cash = (await siteRates('black_market_cash')).find(
      (r) => r.base === 'naira' && r.asset === 'dollar',
    )!;
    const context = await browser.newContext({ baseURL: BASE_URL, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/rates/naira/dollar');
    await expect(page.title()).resolves.toBe(
      `Dollar to naira today: ₦${formatNumber(cash.sell)} cash sell · AfroFX`,
    );
    const cashRow = page.getByRole('row').filter({ hasText: 'Cash' });
    await expect(cashRow.textContent()).resolves.toContain(
      `₦${formatNumber(cash.buy)}₦${formatNumber(cash.sell)}`,
    );
    await screenshot(page, 'public-pair-page-no-js');
    await context.close();
  });

  it.each(PUBLIC_PAGES)('%s: the app takes the page over with no hydration warning', async (path) => {
    const context = await browser.newContext({ baseURL: BASE_URL });
    const page = await context.newPage();
    const messages: ConsoleMessage[] = [];
    page.on('console', (message) => messages.push(message));
    const pageErrors: Error[] = [];
    page.on('pageerror', (error) => pageErrors.push(error));
    await page.goto(path);
    // The app's own header has drawn over the server's HTML (which has none).
    await page.getByRole('banner').waitFor();
    await page.waitForLoadState('networkidle');
    const warnings = messages.filter((m) => HYDRATION.test(m.text())).map((m) => `${m.type()}: ${m.text()}`);
    expect(warnings).toEqual([]);
    expect(pageErrors.map((error) => error.message)).toEqual([]);
    await context.close();
  });

  it('opens a pair page on its base currency once the app runs', async () => {
    const context = await browser.newContext({ baseURL: BASE_URL });
    const page = await context.newPage();
    await page.goto('/rates/rand/euro');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Euro to rand today');
    await expect(page.getByRole('radio', { name: 'ZAR' }).isChecked()).resolves.toBe(true);
    await context.close();
  });
});

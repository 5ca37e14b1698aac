// The public pages hold their rates before any script runs, and the app hydrates them (takes over the
// server's markup without drawing it again) with no console error and no hydration warning.
import { formatNumber, pairPath, PAIRS } from '@afrofx/shared';
import type { Browser, Page } from 'playwright-core';
import { BASE_URL, launchBrowser, screenshot, siteRates } from './browser';

const SERVER_RENDERED = ['/', '/rate_calculator', '/rate_history', ...PAIRS.map(pairPath)];
const BROWSER_RENDERED = ['/status', '/api'];
// React's words for a server/client mismatch, in development and (as error #418/#423/#425) in production builds.
const HYDRATION =
  /hydrat|did not match|server rendered HTML|tree hydrated but some attributes|Minified React error #(418|423|425)/i;
// A zone other than the server's (UTC), as most visitors have: times and "today" must still hydrate alike.
const VISITOR_ZONE = 'Africa/Lagos';

interface Visit {
  page: Page;
  /** Console errors, hydration warnings and uncaught errors (React reports recoverable ones as uncaught). */
  problems: string[];
  close(): Promise<void>;
}

async function visit(browser: Browser, path: string): Promise<Visit> {
  const context = await browser.newContext({ baseURL: BASE_URL, timezoneId: VISITOR_ZONE });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || HYDRATION.test(message.text()))
      problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  // The server's heading, kept once the HTML is parsed and before the app's script runs (deferred module scripts run
  // after the document turns interactive): hydration keeps that very element, drawing the page again replaces it.
  await page.addInitScript(() => {
    document.addEventListener('readystatechange', () => {
      if (document.readyState === 'interactive')
        (window as unknown as { serverHeading: Element | null }).serverHeading = document.querySelector('h1');
    });
  });
  await page.goto(path);
  // The app's header (a `banner`) exists in both; a lazy page hydrates once its code has arrived.
  await page.getByRole('banner').waitFor();
  await page.waitForLoadState('networkidle');
  return { page, problems, close: () => context.close() };
}

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
    const dollarRow = page.getByRole('row').filter({ hasText: 'USD' });
    const text = (await dollarRow.textContent()) ?? '';
    expect(text).toContain(`₦${formatNumber(cash.buy)}`);
    expect(text).toContain(`₦${formatNumber(cash.sell)}`);
    await screenshot(page, 'public-pair-page-no-js');
    await context.close();
  });

  it.each(SERVER_RENDERED)('%s: hydrated, no console error, no hydration warning', async (path) => {
    const { page, problems, close } = await visit(browser, path);
    const kept = await page.evaluate(() => {
      const server = (window as unknown as { serverHeading: Element | null }).serverHeading;
      return server !== null && server === document.querySelector('h1') && server.isConnected;
    });
    expect(problems).toEqual([]);
    expect(kept).toBe(true);
    await close();
  });

  it.each(BROWSER_RENDERED)('%s: drawn by the app, no console error', async (path) => {
    const { page, problems, close } = await visit(browser, path);
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(problems).toEqual([]);
    await close();
  });

  it('opens a pair page on its base currency, then shows times in the visitor’s zone', async () => {
    const { page, problems, close } = await visit(browser, '/rates/rand/euro');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Euro to rand today');
    await expect(page.getByRole('radio', { name: 'ZAR' }).isChecked()).resolves.toBe(true);
    // Hydrated with the server's UTC times, then redrawn with the visitor's (West Africa Time is GMT+1).
    await expect(page.locator('time').first().textContent()).resolves.toMatch(/GMT\+1$/);
    expect(problems).toEqual([]);
    await close();
  });
});

import type { Browser, Page, Route } from 'playwright-core';
import { DEMO_APP, launchBrowser, openPage, pickApp, signInAsDeveloper } from './browser';

const PAGE_DELAY_MS = 400;
/** The demo log has about 150 pages; these specs treat page 3 as its last to see the list stop. */
const LAST_PAGE = 3;

async function count(page: Page, testId: string): Promise<number> {
  const stat = page.getByTestId(testId);
  await stat.filter({ hasText: /^[\d,]+$/ }).waitFor();
  return Number((await stat.textContent())?.replace(/,/g, ''));
}

async function scrollToBottom(page: Page): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
}

describe('the demo developer', () => {
  let browser: Browser;
  let page: Page;
  const requestedPages: number[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
    page = await openPage(browser);
    // The log pages by cursor: each page's number is known from the cursor that the page before it handed out.
    const pageAfter = new Map<string, number>();
    await page.route('**/v1/account/app_request/**', async (route: Route) => {
      const cursor = new URL(route.request().url()).searchParams.get('cursor');
      const pageNumber = cursor === null ? 1 : (pageAfter.get(cursor) ?? 0);
      requestedPages.push(pageNumber);
      // Slow enough for the 'Loading more' row to be seen.
      if (pageNumber > 1) await new Promise((resolve) => setTimeout(resolve, PAGE_DELAY_MS));
      const response = await route.fetch();
      const body = (await response.json()) as { pagination: { cursor: string | null } };
      if (pageNumber >= LAST_PAGE) body.pagination.cursor = null;
      else if (body.pagination.cursor) pageAfter.set(body.pagination.cursor, pageNumber + 1);
      await route.fulfill({ response, json: body });
    });
    await signInAsDeveloper(page);
  });

  afterAll(async () => {
    await browser.close();
  });

  it('picks the demo app and sees its traffic on the dashboard', async () => {
    await pickApp(page, DEMO_APP);
    expect(await page.getByTestId('current-app').textContent()).toBe(DEMO_APP);
    const today = await count(page, 'stat-today');
    const week = await count(page, 'stat-week');
    const month = await count(page, 'stat-month');
    expect(today).toBeGreaterThan(0);
    expect(week).toBeGreaterThanOrEqual(today);
    expect(month).toBeGreaterThanOrEqual(week);

    const chart = page.getByRole('figure', { name: /^Requests per day from / });
    await chart.waitFor();
    // Drawn by lightweight-charts on a canvas; its 30 days are read from the table beside it.
    await chart.locator('canvas').first().waitFor();
    const days = page.getByRole('table', { name: 'Requests per day (UTC)' }).locator('tbody tr');
    expect(await days.count()).toBe(30);
    expect(await page.getByRole('link', { name: 'Home', exact: true }).getAttribute('aria-current')).toBe(
      'page',
    );
  });

  it("scrolls the request log page by page with 'Loading more', and stops at the end", async () => {
    await page.getByRole('link', { name: 'Request', exact: true }).click();
    await page.waitForURL('**/developer/request');
    // The dashboard's chart holds a hidden table too: count only the request log's rows.
    const rows = page.getByRole('table', { name: 'Request log' }).locator('tbody tr');
    await rows.nth(19).waitFor();
    expect(await rows.count()).toBe(20);

    const loadingMore = page.getByRole('status').filter({ hasText: 'Loading more' });
    for (const expected of [40, 60]) {
      await scrollToBottom(page);
      await loadingMore.waitFor();
      await rows.nth(expected - 1).waitFor();
      await loadingMore.waitFor({ state: 'detached' });
      expect(await rows.count()).toBe(expected);
    }

    await page.getByText('Showing all 60 entries.').waitFor();
    await scrollToBottom(page);
    await page.waitForTimeout(PAGE_DELAY_MS * 2);
    expect(await rows.count()).toBe(60);
    expect(requestedPages).toEqual([1, 2, 3]);
  });

  it('shows the plan, the plans on sale and the transactions', async () => {
    await page.getByRole('link', { name: 'Plans', exact: true }).click();
    const panel = page.getByRole('tabpanel');
    await panel.getByRole('heading', { name: 'Growth' }).waitFor();
    expect(await panel.textContent()).toContain('Active');
    expect(await panel.getByRole('progressbar').getAttribute('aria-valuemax')).toBe('100000');

    await page.getByRole('tab', { name: 'Plans' }).click();
    await panel.getByText('Your plan', { exact: true }).waitFor();
    expect(await panel.getByText('You currently have an active plan.').isVisible()).toBe(true);
    const buyButtons = panel.getByRole('button', { name: 'Buy plan' });
    expect(await buyButtons.count()).toBeGreaterThan(0);
    for (const button of await buyButtons.all()) expect(await button.isDisabled()).toBe(true);
    // Only a dearer plan may be bought mid-term, as an upgrade credited with the unused term.
    expect(await panel.getByRole('button', { name: 'Upgrade to Business now in USD' }).isEnabled()).toBe(
      true,
    );
    expect(await panel.getByRole('button', { name: 'Activate the free plan Free' }).isDisabled()).toBe(true);

    await page.getByRole('tab', { name: 'Transactions' }).click();
    await panel.getByText('demo-sandbox-0001').waitFor();
    expect(new URL(page.url()).search).toBe('?tab=transactions');
  });

  it('offers a subscriber the demo booking and support mail', async () => {
    const demo = page.getByRole('link', { name: /Book a demo/ });
    await demo.waitFor();
    expect(await demo.getAttribute('href')).toBe('https://calendly.com/afrofx/30min');
    expect(await page.getByRole('link', { name: 'E-mail support' }).getAttribute('href')).toMatch(
      /^mailto:support@afrofx\.local\?subject=Hi%2C%20I%20need%20help%20with%20my%20account\.$/,
    );
  });

  it('logs out after confirming, clearing the session cookie and what the tab kept', async () => {
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('dialog', { name: 'Log out?' }).getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL('**/developer/signin');
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    expect(await page.evaluate(() => localStorage.getItem('afrofx'))).toBeNull();
    expect((await page.context().cookies()).map((c) => c.name)).not.toContain('afrofx_session');
    await page.goto('/developer/home');
    await page.getByRole('heading', { name: 'Sign in to AfroFX' }).waitFor();
  });

  it('is signed out when the server answers 401 to a call made while signed in', async () => {
    const stale = await openPage(browser);
    await stale.goto('/developer/signin');
    await stale.evaluate(() => {
      localStorage.setItem('afrofx', JSON.stringify({ userData: { first_name: 'A', last_name: 'B' } }));
    });
    // The 401 reloads the page, which may come before the first load ends: wait for the address, not the load.
    await stale.goto('/developer/apps', { waitUntil: 'commit' });
    await stale.waitForURL('**/developer/signin');
    await stale.getByRole('heading', { name: 'Sign in to AfroFX' }).waitFor();
    expect(await stale.evaluate(() => localStorage.getItem('afrofx'))).toBeNull();
    await stale.context().close();
  });
});

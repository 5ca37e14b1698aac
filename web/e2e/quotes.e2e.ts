// Quotes in a real browser: the table's change and spread, the premium line under it, and the
// public status page, at desktop and phone widths.
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openPage, screenshot } from './browser';

/** The page fits its width: nothing scrolls sideways. */
async function expectNoSidewaysScroll(page: Page, width: number) {
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth).toBeLessThanOrEqual(width);
}

describe('quotes, premium and status in the browser', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser.close();
  });

  it.each([1280, 375])(
    'shows the change, spread and premium line on the home page at %i px',
    async (width) => {
      const page = await openPage(browser, width, 900);
      await page.goto('/');
      const table = page.getByRole('tabpanel').getByRole('table');
      await table.locator('tbody tr').first().waitFor();
      const premium = page.getByTestId('premium-line');
      await expect(premium.textContent()).resolves.toMatch(
        /^Cash dollar is (\d+\.\d % (above|below)|level with) bank/,
      );
      const usd = table.getByRole('row').filter({ hasText: 'USD' });
      // Wide screens give the change a column; a phone shows it beside the asset code.
      const changeCell = usd.getByRole('cell').nth(width >= 640 ? 4 : 0);
      // Seen as an arrow and a percentage (or a dash), heard as a sentence.
      await expect(changeCell.locator('[aria-hidden="true"]').first().isVisible()).resolves.toBe(true);
      await expect(changeCell.textContent()).resolves.toMatch(/since the previous day|No earlier day/);
      if (width >= 768) {
        await expect(table.getByRole('columnheader', { name: 'Change' }).isVisible()).resolves.toBe(true);
        await expect(table.getByRole('columnheader', { name: 'Spread' }).isVisible()).resolves.toBe(true);
      } else {
        await expect(table.getByRole('columnheader', { name: 'Spread' }).isVisible()).resolves.toBe(false);
      }
      await expectNoSidewaysScroll(page, width);
      // The table fits its card: no column hides behind a sideways scroll.
      await expect(
        table.evaluate((element) => element.parentElement!.scrollWidth <= element.parentElement!.clientWidth),
      ).resolves.toBe(true);
      await screenshot(page, `quotes-home-${width}`);
      await premium.scrollIntoViewIfNeeded();
      await screenshot(page, `quotes-home-table-${width}`, false);

      await page.getByRole('tab', { name: 'Transfer' }).click();
      await expect(premium.textContent()).resolves.toMatch(/^Transfer dollar is/);
      await page.context().close();
    },
  );

  it.each([1280, 375])('opens the status page from the footer at %i px', async (width) => {
    const page = await openPage(browser, width, 900);
    await page.goto('/');
    await page.getByRole('contentinfo').getByRole('link', { name: 'Service status' }).click();
    await page.waitForURL('**/status');
    await page.getByRole('heading', { name: 'Service status' }).waitFor();
    await page.getByText('All systems operational').waitFor();
    for (const service of ['API', 'Database', 'Job queue', 'Mail']) {
      await expect(page.locator('#main').getByText(service, { exact: true }).isVisible()).resolves.toBe(true);
    }
    await expect(page.getByText(/^Last update /).count()).resolves.toBe(3);
    await expectNoSidewaysScroll(page, width);
    await screenshot(page, `quotes-status-${width}`);
    await page.context().close();
  });

  it('shows a clear error with a way to try again when the status cannot be read', async () => {
    const page = await openPage(browser, 375, 900);
    let fail = true;
    await page.route('**/v1/status', (route) =>
      fail
        ? route.fulfill({
            status: 503,
            contentType: 'application/json',
            body: JSON.stringify({
              message: 'Service unavailable.',
              statusCode: 503,
              error: 'Service Unavailable',
            }),
          })
        : route.continue(),
    );
    // /status itself arrives drawn by the server with its checks; the app reads the status when a visitor moves
    // to it from another page.
    await page.goto('/');
    await page.getByRole('contentinfo').getByRole('link', { name: 'Service status' }).click();
    await page.waitForURL('**/status');
    await page.getByRole('alert').filter({ hasText: 'Service unavailable.' }).waitFor();
    await screenshot(page, 'quotes-status-error-375');
    fail = false;
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByText('All systems operational').waitFor();
    await page.context().close();
  });
});

import type { Browser, Page } from 'playwright-core';
import {
  launchBrowser,
  openPage,
  screenshot,
  signInAsAdmin,
  siteRates,
  tableLoaded,
  WIDTHS,
} from './browser';

const NO_MATCH = 'No rates match these filters';

async function loaded(page: Page): Promise<void> {
  await tableLoaded(page, NO_MATCH);
}

const filters = (page: Page) => page.getByRole('search', { name: 'Filter rates' });

describe('admin rates filters', () => {
  let browser: Browser;
  let admin: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    admin = await openPage(browser);
    await signInAsAdmin(admin);
  });

  afterAll(async () => {
    await browser.close();
  });

  it('filters by market and pair, keeps the filter in the address and through a reload', async () => {
    await admin.goto('/admin/rates');
    await loaded(admin);
    await filters(admin).getByLabel('Market').selectOption('black_market_cash');
    await filters(admin).getByLabel('Base').selectOption('naira');
    await filters(admin).getByLabel('Asset').selectOption('dollar');
    // Each select writes the address as it changes: wait for the last one's, then read it whole.
    await admin.waitForURL((url) => url.searchParams.has('asset'));
    expect(new URL(admin.url()).searchParams.toString()).toBe(
      'market=black_market_cash&base=naira&asset=dollar',
    );
    await admin.getByText(/rates match these filters, newest first/).waitFor();
    await loaded(admin);

    const rows = admin.locator('table:not([aria-busy]) tbody tr');
    const texts = await rows.allTextContents();
    expect(texts.length).toBeGreaterThan(0);
    for (const text of texts) {
      expect(text).toContain('USD');
      expect(text).toContain('NGN');
      expect(text).toContain('Cash');
    }

    await admin.reload();
    await loaded(admin);
    expect(await filters(admin).getByLabel('Market').inputValue()).toBe('black_market_cash');
    expect(await filters(admin).getByLabel('Asset').inputValue()).toBe('dollar');
    expect(await rows.first().textContent()).toContain('Cash');

    await filters(admin).getByRole('button', { name: 'Clear filters' }).click();
    await admin.waitForURL((url) => url.search === '');
    await admin.getByText(/rates entered, newest first/).waitFor();
  });

  it('filters by days: the day of the latest bank rate lists it, a day without rates says so', async () => {
    const latest = (await siteRates('bank')).find((rate) => rate.base === 'naira' && rate.asset === 'dollar');
    const day = latest!.createdAt.slice(0, 10);
    await admin.goto(`/admin/rates?market=bank&base=naira&asset=dollar&from=${day}&to=${day}`);
    await loaded(admin);
    expect(await filters(admin).getByLabel('From').inputValue()).toBe(day);
    expect(await admin.locator('table:not([aria-busy]) tbody tr').count()).toBeGreaterThan(0);

    await filters(admin).getByLabel('From').fill('1999-01-01');
    await filters(admin).getByLabel('To').fill('1999-01-31');
    await admin.waitForURL(/to=1999-01-31/);
    await admin.getByText(NO_MATCH).waitFor();
  });

  it('says under "To" when the days end before they start, and asks nothing', async () => {
    await admin.goto('/admin/rates?from=2026-03-10&to=2026-03-01');
    const to = filters(admin).getByLabel('To');
    await to.waitFor();
    const describedBy = await to.getAttribute('aria-describedby');
    expect(await admin.locator(`[id="${describedBy}"]`).textContent()).toBe(
      'The to date must not be before the from date.',
    );
    await admin.getByText(NO_MATCH).waitFor();
  });

  it('screenshots the filtered list at 1280 and 375 px', async () => {
    for (const { width, height } of WIDTHS) {
      const page = await openPage(browser, width, height);
      await signInAsAdmin(page);
      await page.goto('/admin/rates?market=bank&base=naira&asset=dollar');
      await loaded(page);
      await screenshot(page, `admin-rates-filters-${width}`, false);
      await page.goto('/admin/rates?market=bank&from=1999-01-01&to=1999-01-31');
      await page.getByText(NO_MATCH).waitFor();
      await screenshot(page, `admin-rates-filters-empty-${width}`, false);
      await page.context().close();
    }
  });
});

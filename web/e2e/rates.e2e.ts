import { formatNumber } from '@afrofx/shared';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openPage, signInAsAdmin, siteRates } from './browser';

async function latestNairaDollarBankBuy(): Promise<number> {
  const rate = (await siteRates('bank')).find((entry) => entry.base === 'naira' && entry.asset === 'dollar');
  if (!rate) throw new Error('the demo data has no naira/dollar bank rate');
  return rate.buy;
}

/** The BUY value of the USD row on the home page's Bank tab, in naira. */
async function homeUsdBankBuy(page: Page): Promise<string> {
  await page.goto('/');
  await page.getByRole('tab', { name: 'Bank' }).click();
  await page.getByRole('radio', { name: 'NGN' }).check();
  const row = page.getByRole('tabpanel').getByRole('row').filter({ hasText: 'USD' });
  await row.waitFor();
  return (await row.getByRole('cell').nth(1).textContent()) ?? '';
}

describe('admin rates reach the home page', () => {
  let browser: Browser;
  let admin: Page;
  let visitor: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    admin = await openPage(browser);
    visitor = await openPage(browser);
    await signInAsAdmin(admin);
  });

  afterAll(async () => {
    await browser.close();
  });

  it('loads the next page of rates when the window reaches the page bottom', async () => {
    await admin.goto('/admin/rates');
    const rows = admin.locator('table:not([aria-busy]) tbody tr');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(20);

    await admin.mouse.wheel(0, 100000);
    await rows.nth(20).waitFor();
    expect(await rows.count()).toBe(40);
  });

  it('adds, edits and deletes a naira/dollar bank rate, and the home page follows', async () => {
    const previousBuy = await latestNairaDollarBankBuy();

    // The form compares a new price with the latest bank rates, which the page reads as it opens: on a busy
    // machine the form can be filled before they arrive.
    const latestBank = admin.waitForResponse(
      (response) => response.url().endsWith('/v1/user/fetch_rates/bank') && response.ok(),
    );
    await admin.goto('/admin/rates');
    await latestBank;
    await admin.getByRole('button', { name: 'Add Rates' }).click();
    const addDialog = admin.getByRole('dialog', { name: 'Add rate' });
    await addDialog.getByLabel('Market').selectOption('bank');
    await addDialog.getByLabel('Asset').selectOption('dollar');
    await addDialog.getByLabel('Base').selectOption('naira');
    // A zero too many: the form asks before saving a price more than 20 % from the latest bank rate.
    await addDialog.getByLabel('Sell').fill('1240.5');
    await addDialog.getByLabel('Buy').fill('12345.6');
    await addDialog.getByRole('button', { name: 'Add rate' }).click();
    const check = addDialog.getByRole('alert');
    await check.waitFor();
    expect(await check.textContent()).toContain('above the latest bank USD/NGN rate');
    expect(await check.textContent()).toContain('Sell (₦1,240.50) is below Buy (₦12,345.60).');
    await check.getByRole('button', { name: 'Check again' }).click();
    await addDialog.getByLabel('Buy').fill('1234.56');
    await addDialog.getByRole('button', { name: 'Add rate' }).click();
    await addDialog.waitFor({ state: 'detached' });
    const added = admin.getByRole('row').filter({ hasText: '₦1,234.56' });
    await added.waitFor();
    expect(await added.textContent()).toContain('Bank');

    expect(await homeUsdBankBuy(visitor)).toBe('₦1,234.56');

    await added.getByRole('button', { name: /^Edit/ }).click();
    const editDialog = admin.getByRole('dialog', { name: 'Edit rate' });
    await editDialog.getByLabel('Buy').fill('1111.11');
    await editDialog.getByLabel('Sell').fill('1122.33');
    await editDialog.getByLabel('Reason for the correction').fill('A typo in both figures');
    await editDialog.getByRole('button', { name: 'Save changes' }).click();
    await editDialog.waitFor({ state: 'detached' });
    const edited = admin.getByRole('row').filter({ hasText: '₦1,111.11' });
    await edited.waitFor();
    expect(await admin.getByRole('row').filter({ hasText: '₦1,234.56' }).count()).toBe(0);

    expect(await homeUsdBankBuy(visitor)).toBe('₦1,111.11');

    await edited.getByRole('button', { name: /^Delete/ }).click();
    const confirm = admin.getByRole('dialog', { name: 'Delete this rate?' });
    await confirm.getByLabel('Reason for withdrawing it').fill('Entered in error');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await confirm.waitFor({ state: 'detached' });
    await edited.waitFor({ state: 'detached' });
    expect(await admin.getByRole('row').filter({ hasText: '₦1,111.11' }).count()).toBe(0);

    expect(await homeUsdBankBuy(visitor)).toBe(`₦${formatNumber(previousBuy)}`);
  });
});

// The accessibility spec leaves a full-page screenshot of every screen at 1280 and 375 px
// (e2e-artifacts/a11y-<page>-<width>.png). These are the states it does not reach: open menus, toasts, dialogs and
// validation errors.
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openPage, screenshot, signInAsAdmin, tableLoaded } from './browser';

const ratesLoaded = (page: Page) => tableLoaded(page, 'Rates have not been updated today.');

describe('screenshots for review', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser.close();
  });

  it('home at 375 px with the menu open', async () => {
    const page = await openPage(browser, 375, 812);
    await page.goto('/');
    await ratesLoaded(page);
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.locator('#mobile-menu').waitFor();
    await screenshot(page, 'home-375-menu', false);
  });

  it('a subscription on the home page, with its toast', async () => {
    const page = await openPage(browser, 1280, 900);
    await page.goto('/');
    await ratesLoaded(page);
    // The home page also has the rate alert form, which asks for an e-mail address too.
    const form = page.locator('form').filter({ has: page.getByRole('button', { name: 'Subscribe' }) });
    await form.getByLabel('E-mail address').fill(`screenshot-${Date.now()}@example.com`);
    await form.getByRole('button', { name: 'Subscribe' }).click();
    await page.locator('[role="status"][data-tone]').waitFor();
    await screenshot(page, 'home-subscribed-toast', false);
  });

  it("the admin Emails screen's confirmation and the Add rate form's errors", async () => {
    const page = await openPage(browser, 1280, 900);
    await signInAsAdmin(page);
    await tableLoaded(page, 'Mailing list is empty.');
    await page.getByRole('button', { name: 'Send Rates Mail' }).click();
    await page.getByRole('dialog', { name: 'Send the rates mail?' }).waitFor();
    await screenshot(page, 'admin-emails-confirm', false);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    await page.getByRole('link', { name: 'Rates', exact: true }).click();
    await tableLoaded(page, 'Rates is empty.');
    await page.getByRole('button', { name: 'Add Rates' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add rate' });
    await dialog.getByRole('button', { name: 'Add rate' }).click();
    await dialog.getByText('Market is required.').waitFor();
    await screenshot(page, 'admin-add-rate-errors', false);
  });

  it('the admin console at 375 px with the menu open', async () => {
    const page = await openPage(browser, 375, 812);
    await signInAsAdmin(page);
    await page.goto('/admin/rates');
    await tableLoaded(page, 'Rates is empty.');
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('link', { name: 'Subscriptions' }).waitFor();
    await screenshot(page, 'admin-375-menu', false);
  });
});

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

  it('home at 1280 px', async () => {
    const page = await openPage(browser, 1280, 900);
    await page.goto('/');
    await ratesLoaded(page);
    await screenshot(page, 'home-1280');
  });

  it('home at 375 px, with and without the menu', async () => {
    const page = await openPage(browser, 375, 812);
    await page.goto('/');
    await ratesLoaded(page);
    await screenshot(page, 'home-375');
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.locator('#mobile-menu').waitFor();
    await screenshot(page, 'home-375-menu', false);
  });

  it('the API page', async () => {
    const page = await openPage(browser);
    await page.goto('/api');
    await page.getByText('/ year').first().or(page.getByText('Plans is empty.')).waitFor();
    await screenshot(page, 'api');
  });

  it('the API page and the rate calculator at 375 px', async () => {
    const page = await openPage(browser, 375, 812);
    await page.goto('/api');
    await page.getByText('/ year').first().or(page.getByText('Plans is empty.')).waitFor();
    await screenshot(page, 'api-375');
    await page.goto('/rate_calculator');
    await page
      .getByText('Rate used')
      .or(page.getByText(/There is no NGN rate/))
      .waitFor();
    await screenshot(page, 'rate-calculator-375');
  });

  it('the privacy policy', async () => {
    const page = await openPage(browser);
    await page.goto('/company/privacy');
    await page.getByRole('heading', { name: 'Privacy policy', level: 1 }).waitFor();
    await screenshot(page, 'privacy');
  });

  it('the rate calculator', async () => {
    const page = await openPage(browser);
    await page.goto('/rate_calculator');
    await page
      .getByText('Rate used')
      .or(page.getByText(/There is no NGN rate/))
      .waitFor();
    await screenshot(page, 'rate-calculator');
  });

  it('the not-found page', async () => {
    const page = await openPage(browser);
    await page.goto('/no/such/page');
    await page.getByRole('heading', { name: 'This page does not exist.' }).waitFor();
    await screenshot(page, 'not-found');
  });

  it('the admin sign-in page', async () => {
    const page = await openPage(browser);
    await page.goto('/admin/login');
    await page.getByRole('heading', { name: 'Admin sign in' }).waitFor();
    await screenshot(page, 'admin-login');
  });

  it('a subscription on the home page, with its toast', async () => {
    const page = await openPage(browser, 1280, 900);
    await page.goto('/');
    await ratesLoaded(page);
    await page.getByLabel('E-mail address').fill(`screenshot-${Date.now()}@example.com`);
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await page.locator('[role="status"][data-tone]').waitFor();
    await screenshot(page, 'home-subscribed-toast', false);
  });

  it('the admin Rates and Emails screens', async () => {
    const page = await openPage(browser, 1280, 900);
    await signInAsAdmin(page);
    await tableLoaded(page, 'Mailing list is empty.');
    await screenshot(page, 'admin-emails');
    await page.getByRole('button', { name: 'Send Rates Mail' }).click();
    await page.getByRole('dialog', { name: 'Send the rates mail?' }).waitFor();
    await screenshot(page, 'admin-emails-confirm', false);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    await page.getByRole('link', { name: 'Rates', exact: true }).click();
    await tableLoaded(page, 'Rates is empty.');
    await screenshot(page, 'admin-rates');

    await page.getByRole('button', { name: 'Add Rates' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add rate' });
    await dialog.getByRole('button', { name: 'Add rate' }).click();
    await dialog.getByText('Market is required.').waitFor();
    await screenshot(page, 'admin-add-rate-errors', false);
  });

  it('the admin Rates screen at 375 px, with the menu open', async () => {
    const page = await openPage(browser, 375, 812);
    await signInAsAdmin(page);
    await page.goto('/admin/rates');
    await tableLoaded(page, 'Rates is empty.');
    await screenshot(page, 'admin-rates-375');
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('link', { name: 'Subscriptions' }).waitFor();
    await screenshot(page, 'admin-375-menu', false);
  });
});

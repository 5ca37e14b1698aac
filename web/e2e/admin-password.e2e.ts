import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openPage, screenshot, signInAsAdmin, WIDTHS } from './browser';

/** An admin of the test's own, made by the demo admin, so that changing its password leaves the other specs alone. */
async function createAdmin(page: Page, email: string, password: string): Promise<void> {
  await signInAsAdmin(page);
  const res = await page.request.post('/v1/admin/create_user', {
    data: { email, password },
    headers: { 'X-Requested-With': 'fetch' },
  });
  expect(res.status()).toBe(201);
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.getByRole('heading', { name: 'Admin sign in' }).waitFor();
}

async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/admin/login');
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/admin/emails');
}

describe('admin change password', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser.close();
  });

  it('changes the signed-in admin password from the menu, errors under their fields, other sessions signed out', async () => {
    const email = `own-password-${Date.now()}@example.com`;
    const password = 'first admin lantern 17';
    const next = 'second admin harbour 29';
    const page = await openPage(browser);
    await createAdmin(page, email, password);
    await signIn(page, email, password);
    const otherBrowser = await openPage(browser);
    await signIn(otherBrowser, email, password);

    await page.getByRole('link', { name: 'Password', exact: true }).click();
    await page.waitForURL('**/admin/change_password');
    await page.getByRole('heading', { name: 'Password' }).waitFor();

    const fill = async (current: string, replacement: string) => {
      await page.getByLabel('Current password', { exact: true }).fill(current);
      await page.getByLabel('New password', { exact: true }).fill(replacement);
      await page.getByLabel('Confirm new password', { exact: true }).fill(replacement);
      await page.getByRole('button', { name: 'Change password' }).click();
    };
    const describedBy = async (label: string) => {
      const id = await page.getByLabel(label, { exact: true }).getAttribute('aria-describedby');
      return id ? page.locator(`[id="${id}"]`).textContent() : null;
    };

    await fill('not-my-password', next);
    await page
      .locator('[role="status"][data-tone="error"]')
      .filter({ hasText: 'Your current password is not correct.' })
      .waitFor();
    expect(await describedBy('Current password')).toBe('Your current password is not correct.');
    expect(await describedBy('New password')).toBeNull();

    await fill(password, 'qwerty123456');
    await page
      .getByText(/This password is too easy to guess/)
      .first()
      .waitFor();
    expect(await describedBy('New password')).toMatch(/too easy to guess/);
    expect(await describedBy('Current password')).toBeNull();

    await fill(password, next);
    await page
      .locator('[role="status"][data-tone="success"]')
      .filter({ hasText: 'Your password has been changed.' })
      .waitFor();

    // This session carries on with its fresh cookie; the other browser is signed out at its next call.
    await page.getByRole('link', { name: 'Rates', exact: true }).click();
    await page.waitForURL('**/admin/rates');
    await page.reload();
    await page.getByRole('heading', { name: 'Rates' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin/rates');

    // Its 401 reloads the page, which may come before the first load ends: wait for the address, not the load.
    await otherBrowser.goto('/admin/rates', { waitUntil: 'commit' });
    await otherBrowser.getByRole('heading', { name: 'Admin sign in' }).waitFor();
    await otherBrowser.context().close();
    await page.context().close();

    const again = await openPage(browser);
    await signIn(again, email, next);
    await again.context().close();
  });

  it('screenshots the page at 1280 and 375 px', async () => {
    for (const { width, height } of WIDTHS) {
      const page = await openPage(browser, width, height);
      await signInAsAdmin(page);
      await page.goto('/admin/change_password');
      await page.getByLabel('Current password', { exact: true }).waitFor();
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByText('Current password is required.').waitFor();
      await screenshot(page, `admin-change-password-${width}`);
      await page.context().close();
    }
  });
});

import type { Browser } from 'playwright-core';
import { ADMIN, launchBrowser, openPage, signInAsAdmin } from './browser';

describe('admin session', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser.close();
  });

  it('shows the server message for a wrong password and stays on the sign-in page', async () => {
    const page = await openPage(browser);
    await page.goto('/admin/login');
    await page.getByLabel('E-mail address').fill(ADMIN.email);
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();

    const toast = page.locator('[role="status"][data-tone="error"]');
    await toast.waitFor();
    expect((await toast.textContent())?.trim()).not.toBe('');
    expect(new URL(page.url()).pathname).toBe('/admin/login');
    expect(await page.getByLabel('Password', { exact: true }).inputValue()).toBe('not-the-password');
    await page.context().close();
  });

  it('signs out when the server answers 401 to a call made while signed in', async () => {
    const page = await openPage(browser);
    await page.goto('/');
    await page.evaluate(() => {
      localStorage.setItem('afrofx-admin', JSON.stringify({ userData: { email: 'old@example.com' } }));
    });
    // The 401 reloads the page, which may come before the first load ends: wait for the address, not the load.
    await page.goto('/admin/rates', { waitUntil: 'commit' });
    await page.getByRole('heading', { name: 'Admin sign in' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin/login');
    expect(await page.evaluate(() => localStorage.getItem('afrofx-admin'))).toBeNull();
    await page.context().close();
  });

  it('opens the sidebar from the menu button on a small screen and closes it on an outside click', async () => {
    const page = await openPage(browser, 375, 812);
    await signInAsAdmin(page);
    const sidebarLink = page.getByRole('link', { name: 'Subscriptions' });
    expect(await sidebarLink.isVisible()).toBe(false);

    await page.getByRole('button', { name: 'Menu' }).click();
    await sidebarLink.waitFor({ state: 'visible' });
    await page.mouse.click(340, 500);
    await sidebarLink.waitFor({ state: 'hidden' });
    await page.context().close();
  });

  it('leaves the console from the sidebar', async () => {
    const page = await openPage(browser);
    await signInAsAdmin(page);
    expect(await page.getByRole('complementary', { name: 'Admin' }).textContent()).toContain(ADMIN.email);

    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('heading', { name: 'Admin sign in' }).waitFor();
    // The server cleared the httpOnly session cookie too, not only what the page kept.
    expect((await page.context().cookies()).map((c) => c.name)).not.toContain('afrofx_admin_session');
    await page.goto('/admin/emails');
    await page.getByRole('heading', { name: 'Admin sign in' }).waitFor();
    await page.context().close();
  });
});

import type { Browser, Page } from 'playwright-core';
import { createDeveloper, launchBrowser, newestMailTo, openPage, signInAsDeveloper } from './browser';

const RESET_LINK = /https?:\/\/[^\s"'<>]+\/developer\/reset_password\/[\w-]+/;

async function submitNewPassword(page: Page, password: string, confirmation = password): Promise<void> {
  await page.getByLabel('New password', { exact: true }).fill(password);
  await page.getByLabel('Confirm new password', { exact: true }).fill(confirmation);
  await page.getByRole('button', { name: 'Reset password' }).click();
}

describe('developer passwords', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser.close();
  });

  it('sets a new password from the e-mailed link, which then works only once', async () => {
    const account = await createDeveloper('reset');
    const newPassword = 'second-password-2';
    const page = await openPage(browser);

    await page.goto('/developer/signin');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.waitForURL('**/developer/request_password_reset');
    await page.getByLabel('E-mail address').fill(account.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page
      .getByRole('main')
      .getByText('If an account exists for this e-mail, a password reset link has been sent to it.')
      .waitFor();

    const link = RESET_LINK.exec(await newestMailTo(account.email, RESET_LINK))?.[0];
    expect(link).toBeDefined();
    await page.goto(link!);
    await submitNewPassword(page, newPassword, `${newPassword}-typo`);
    await page.getByText('Password must match!').waitFor();

    await submitNewPassword(page, newPassword);
    await page.waitForURL('**/developer/signin');
    await page
      .locator('[role="status"][data-tone="success"]')
      .filter({ hasText: 'Your password has been reset. You can now sign in with it.' })
      .waitFor();

    await page.getByLabel('E-mail address').fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page
      .locator('[role="status"][data-tone="error"]')
      .filter({ hasText: 'Invalid email or password.' })
      .waitFor();

    await signInAsDeveloper(page, account.email, newPassword);
    await page.context().close();

    // The used link is refused on arrival, before a new password is typed twice.
    const again = await openPage(browser);
    await again.goto(link!);
    await again
      .getByRole('alert')
      .filter({ hasText: 'This password reset link is invalid, expired or already used.' })
      .waitFor();
    expect(await again.getByLabel('New password', { exact: true }).count()).toBe(0);
    expect(await again.getByRole('link', { name: 'Send a new one' }).isVisible()).toBe(true);
    expect(new URL(again.url()).pathname).toMatch(/^\/developer\/reset_password\//);
    await again.context().close();
  });

  it('changes the password when the current one is right and the new one differs', async () => {
    const account = await createDeveloper('change');
    const page = await openPage(browser);
    await signInAsDeveloper(page, account.email, account.password);
    await page.getByRole('link', { name: 'Password', exact: true }).click();
    await page.waitForURL('**/developer/change_password');

    const fill = async (current: string, next: string) => {
      await page.getByLabel('Current password', { exact: true }).fill(current);
      await page.getByLabel('New password', { exact: true }).fill(next);
      await page.getByLabel('Confirm new password', { exact: true }).fill(next);
      await page.getByRole('button', { name: 'Change password' }).click();
    };

    await fill(account.password, account.password);
    await page.getByText('Passwords can not be the same.').waitFor();

    await fill('not-my-password', 'changed-password-4');
    await page
      .locator('[role="status"][data-tone="error"]')
      .filter({ hasText: 'Your current password is not correct.' })
      .waitFor();
    // The refusal sits under the field it is about, and only there.
    const describedBy = async (label: string) => {
      const id = await page.getByLabel(label, { exact: true }).getAttribute('aria-describedby');
      return id ? page.locator(`[id="${id}"]`).textContent() : null;
    };
    expect(await describedBy('Current password')).toBe('Your current password is not correct.');
    expect(await describedBy('New password')).toBeNull();

    await fill(account.password, 'changed-password-4');
    await page
      .locator('[role="status"][data-tone="success"]')
      .filter({ hasText: 'Your password has been changed.' })
      .waitFor();
    expect(await page.getByLabel('Current password', { exact: true }).inputValue()).toBe('');

    // The change ended the account's other sessions, but this one carries on with its fresh token.
    await page.getByRole('link', { name: 'Your Apps', exact: true }).click();
    await page.waitForURL('**/developer/apps');
    await page.getByText('No apps created.').waitFor();
    await page.reload();
    await page.getByText('No apps created.').waitFor();
    expect(new URL(page.url()).pathname).toBe('/developer/apps');
    await page.context().close();

    const again = await openPage(browser);
    await signInAsDeveloper(again, account.email, 'changed-password-4');
    await again.context().close();
  });

  it('stays signed in in a second tab and after a reload; a password change signs another browser out', async () => {
    const account = await createDeveloper('tabs');
    const page = await openPage(browser);
    await signInAsDeveloper(page, account.email, account.password);

    // The session is a cookie every tab shares, not one tab's storage.
    const secondTab = await page.context().newPage();
    await secondTab.goto('/developer/apps');
    await secondTab.getByText('No apps created.').waitFor();
    await secondTab.reload();
    await secondTab.getByText('No apps created.').waitFor();
    expect(new URL(secondTab.url()).pathname).toBe('/developer/apps');

    const otherBrowser = await openPage(browser);
    await signInAsDeveloper(otherBrowser, account.email, account.password);

    await page.goto('/developer/change_password');
    await page.getByLabel('Current password', { exact: true }).fill(account.password);
    await page.getByLabel('New password', { exact: true }).fill('changed-password-5');
    await page.getByLabel('Confirm new password', { exact: true }).fill('changed-password-5');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page
      .locator('[role="status"][data-tone="success"]')
      .filter({ hasText: 'Your password has been changed.' })
      .waitFor();

    await otherBrowser.reload();
    await otherBrowser.waitForURL('**/developer/signin');
    await otherBrowser.getByRole('heading', { name: 'Sign in to AfroFX' }).waitFor();
    await otherBrowser.context().close();

    // Both tabs of the browser that changed it share the renewed cookie.
    await secondTab.reload();
    await secondTab.getByText('No apps created.').waitFor();
    expect(new URL(secondTab.url()).pathname).toBe('/developer/apps');
    await page.context().close();
  });
});

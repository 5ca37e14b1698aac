import type { Browser, Page, Route } from 'playwright-core';
import {
  ADMIN,
  BASE_URL,
  createDeveloper,
  launchBrowser,
  openPage,
  screenshot,
  signInAsAdmin,
  tableLoaded,
  uniqueEmail,
  type DeveloperAccount,
  WIDTHS,
} from './browser';

const STRONG = 'violet-granite-harbour-42';
// Slow enough for the 'Loading more' row to be seen.
const PAGE_DELAY_MS = 400;

async function post(path: string, token: string | null, body: object): Promise<{ data: { token?: string } }> {
  const response = await fetch(`${BASE_URL}/v1/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`POST /v1/${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as { data: { token?: string } };
}

/** Answers pages after the first one late, so the 'Loading more' row shows. */
async function slowLaterPages(page: Page, pattern: string): Promise<void> {
  await page.route(pattern, async (route: Route) => {
    const pageNumber = Number(new URL(route.request().url()).searchParams.get('page') ?? '1');
    if (pageNumber > 1) await new Promise((resolve) => setTimeout(resolve, PAGE_DELAY_MS));
    await route.continue();
  });
}

async function scrollsToMoreThan20(page: Page, table: string): Promise<void> {
  const rows = page.getByRole('table', { name: table }).locator('tbody tr');
  await rows.nth(19).waitFor();
  const loadingMore = page.getByRole('status').filter({ hasText: 'Loading more' });
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await loadingMore.waitFor();
  await rows.nth(20).waitFor();
  await loadingMore.waitFor({ state: 'detached' });
}

const toast = (page: Page, message: string) =>
  page.locator('[role="status"][data-tone="success"]').filter({ hasText: message });

describe('admin users, API customers and apps', () => {
  let browser: Browser;
  let developer: DeveloperAccount;

  // Each listed admin costs the server a password hash at full cost, one at a time (a second would wait in its
  // hashing queue and, past the queue's limit, be turned away), on threads below every other process's priority. With
  // Chromium and the other worker's spec holding both cores, these hashes took past a minute in CI, seconds when idle.
  beforeAll(async () => {
    browser = await launchBrowser();
    developer = await createDeveloper('admin-users');
    // More than a page of accounts and of apps, so both lists scroll.
    const adminToken = (await post('admin/authenticate', null, ADMIN)).data.token!;
    for (let n = 0; n < 21; n++)
      await post('admin/create_user', adminToken, {
        email: uniqueEmail(`listed-admin${n}`),
        password: STRONG,
      });
    const developerToken = (
      await post('account/signin', null, { email: developer.email, password: developer.password })
    ).data.token!;
    for (let n = 0; n < 21; n++) await post('apps/create_app', developerToken, { name: `Ledger ${n}` });
  }, 180_000);

  afterAll(async () => {
    await browser.close();
  });

  it('adds an admin, disables and enables a developer, toggles its super customer state', async () => {
    const page = await openPage(browser);
    await signInAsAdmin(page);
    await page.getByRole('link', { name: 'Users', exact: true }).click();
    await page.waitForURL('**/admin/users');
    await tableLoaded(page, 'Users is empty.');

    const email = uniqueEmail('new-admin');
    // The button names the form it opens.
    await page.getByRole('button', { name: 'Add Admin' }).click();
    const form = page.getByRole('dialog', { name: 'Add Admin' });
    await form.getByRole('button', { name: 'Add Admin' }).click();
    await form.getByText('Password is required.').waitFor();
    await form.getByLabel('E-mail address').fill(email);
    await form.getByLabel('Password').fill(STRONG);
    await form.getByRole('button', { name: 'Add Admin' }).click();
    await toast(page, 'Account successfully created.').waitFor();
    await form.waitFor({ state: 'detached' });
    await page.getByRole('row').filter({ hasText: email }).getByText('Admin', { exact: true }).waitFor();

    // The developer's row: found on a later page if the list has grown past it.
    const row = page.getByRole('row').filter({ hasText: developer.email });
    await page.goto('/admin/users');
    while (!(await row.isVisible())) {
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await page.waitForTimeout(200);
    }
    await row.getByRole('cell', { name: 'Active', exact: true }).waitFor();

    // Each button names what it does; disabling asks first.
    await row.getByRole('button', { name: 'Disable Account' }).click();
    const confirm = page.getByRole('dialog', { name: 'Disable this account?' });
    await confirm.getByText(developer.email, { exact: false }).waitFor();
    await confirm.getByRole('button', { name: 'Disable Account' }).click();
    await toast(page, 'Account successfully disabled.').waitFor();
    await row.getByRole('cell', { name: 'Disabled', exact: true }).waitFor();

    await row.getByRole('button', { name: 'Enable Account' }).click();
    await toast(page, 'Account successfully enabled.').waitFor();
    await row.getByRole('cell', { name: 'Active', exact: true }).waitFor();

    await row.getByRole('button', { name: 'Enable Super Customer' }).click();
    await toast(page, 'The account is now a super customer.').waitFor();
    await row.getByRole('button', { name: 'Remove Super Customer' }).waitFor();
    await row.getByText('Super customer', { exact: true }).waitFor();
    await row.getByRole('button', { name: 'Remove Super Customer' }).click();
    await row.getByRole('button', { name: 'Enable Super Customer' }).waitFor();
    await toast(page, 'The account is no longer a super customer.').waitFor();
    await page.context().close();
  });

  it("scrolls users and apps with 'Loading more'; lists the developer among API customers", async () => {
    const page = await openPage(browser);
    await slowLaterPages(page, '**/v1/admin/fetch_users?*');
    await slowLaterPages(page, '**/v1/admin/fetch_apps?*');
    await signInAsAdmin(page);

    await page.goto('/admin/users');
    await scrollsToMoreThan20(page, 'Users');

    await page.goto('/admin/apps');
    const newest = page.getByRole('row').filter({ hasText: 'Ledger 20' });
    await newest.getByText(developer.email).waitFor();
    await newest.getByText(`${developer.first_name} ${developer.last_name}`).waitFor();
    await scrollsToMoreThan20(page, 'Apps');

    await page.goto('/admin/api_wait_list');
    await tableLoaded(page, 'API Customers list is empty.');
    await page.getByRole('row').filter({ hasText: developer.email }).waitFor();
    await page.context().close();
  });

  describe.each(WIDTHS)('at $width px', ({ width, height }) => {
    const shot = (page: Page, name: string) => screenshot(page, `admin-${name}-${width}`);

    it('the users, API customers and apps screens', async () => {
      const page = await openPage(browser, width, height);
      await signInAsAdmin(page);

      await page.goto('/admin/users');
      await tableLoaded(page, 'Users is empty.');
      await shot(page, 'users');
      await page.getByRole('button', { name: 'Add Admin' }).click();
      await page.getByRole('dialog', { name: 'Add Admin' }).waitFor();
      await shot(page, 'users-add-admin');
      await page.keyboard.press('Escape');

      await page.goto('/admin/api_wait_list');
      await tableLoaded(page, 'API Customers list is empty.');
      await shot(page, 'api-customers');

      await page.goto('/admin/apps');
      await tableLoaded(page, 'Apps is empty.');
      await shot(page, 'apps');
      await page.context().close();
    });
  });
});

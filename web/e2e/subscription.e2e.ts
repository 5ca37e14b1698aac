import type { Browser } from 'playwright-core';
import { launchBrowser, newestMailTo, openPage, signInAsAdmin } from './browser';

const CONFIRMATION_LINK = /https?:\/\/[^\s"'<>]+\/confirmation\/[^\s"'<>)]+/;

describe('mailing-list subscription', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser.close();
  });

  async function subscribe(email: string): Promise<void> {
    const page = await openPage(browser);
    await page.goto('/');
    // The home page also has the rate alert form, which asks for an e-mail address too.
    const form = page.locator('form').filter({ has: page.getByRole('button', { name: 'Subscribe' }) });
    await form.getByLabel('E-mail address').fill(email);
    await form.getByRole('button', { name: 'Subscribe' }).click();
    await page.locator('[role="status"][data-tone="success"]').first().waitFor();
    expect(await form.getByLabel('E-mail address').inputValue()).toBe('');
    await page.context().close();
  }

  it('confirms an address from the e-mailed link, and subscribing it again adds no second row', async () => {
    const email = `e2e-${Date.now()}@example.com`;

    await subscribe(email);
    const mail = await newestMailTo(email);
    const link = CONFIRMATION_LINK.exec(mail)?.[0];
    expect(link).toBeDefined();

    const page = await openPage(browser);
    await page.goto(link!);
    await page.getByText('Your subscription has been activated.').waitFor();
    await page.context().close();

    await subscribe(email);

    const admin = await openPage(browser);
    await signInAsAdmin(admin);
    const rows = admin.getByRole('row').filter({ hasText: email });
    await rows.first().waitFor();
    expect(await rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('Active');
    expect(await rows.first().textContent()).not.toContain('InActive');
    await admin.context().close();
  });
});

import type { Browser } from 'playwright-core';
import { launchBrowser, openPage, screenshot, signInAsAdmin, WIDTHS } from './browser';

describe('admin job status on the Emails screen', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser.close();
  });

  it.each(WIDTHS)(
    'Send Rates Mail shows its run going to done with the count sent at $width px',
    async ({ width, height }) => {
      const page = await openPage(browser, width, height);
      await signInAsAdmin(page);
      const jobs = page.getByRole('list', { name: 'Recent jobs' });
      await jobs.or(page.getByText('No jobs yet.')).waitFor();
      const before = await jobs.getByRole('listitem').count();

      await page.getByRole('button', { name: 'Send Rates Mail' }).click();
      const confirm = page.getByRole('dialog', { name: 'Send the rates mail?' });
      await confirm.getByRole('button', { name: 'Send Rates Mail' }).click();
      await confirm.waitFor({ state: 'detached' });
      await page.getByText(/Rates mail is being sent to \d+ subscriber\(s\)\./).waitFor();

      // The new run shows at once, newest first, and the panel keeps asking until it is done.
      await jobs.getByRole('listitem').nth(before).waitFor();
      const newest = jobs.getByRole('listitem').first();
      await newest
        .filter({ hasText: 'Rates mail' })
        .filter({ hasText: 'Done' })
        .filter({ hasText: / sent/ })
        .waitFor();
      expect(await jobs.getByRole('listitem').count()).toBe(before + 1);
      await screenshot(page, `admin-jobs-${width}`);
      await page.context().close();
    },
  );
});

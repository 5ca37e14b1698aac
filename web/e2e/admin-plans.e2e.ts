import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openPage, screenshot, signInAsAdmin, tableLoaded, WIDTHS } from './browser';

describe('admin plans, transactions and subscriptions', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser.close();
  });

  it('creates a plan as a draft, puts it on sale, adds and removes a feature, edits and deletes it', async () => {
    const page = await openPage(browser);
    await signInAsAdmin(page);
    await page.goto('/admin/plans');
    await tableLoaded(page, 'Plans is empty.');

    const name = `E2E ${Date.now().toString(36)}`;
    await page.getByRole('button', { name: 'Create Plan' }).click();
    const form = page.getByRole('dialog', { name: 'Create plan' });
    await form.getByRole('button', { name: 'Create plan' }).click();
    await form.getByText('Name is required.').waitFor();
    await form.getByLabel('Name').fill(name);
    await form.getByLabel('Amount (USD per year)').fill('12.50');
    await form.getByLabel('Requests per month').fill('abc');
    await form.getByRole('button', { name: 'Create plan' }).click();
    await form.getByText('Number of requests must be a whole number.').waitFor();
    await form.getByLabel('Requests per month').fill('2500');
    await form.getByRole('button', { name: 'Create plan' }).click();
    await form.waitFor({ state: 'detached' });
    const row = page.getByRole('row').filter({ hasText: name });
    await row.getByText('$12.50').waitFor();
    // A new plan is a draft with only the latest rates ticked, until it is put on sale.
    await row.getByText('Draft').waitFor();
    await row.getByRole('button', { name: `Put ${name} on sale` }).click();
    await row.getByText('On sale').waitFor();

    await row.getByRole('button', { name: `Features of ${name}` }).click();
    const features = page.getByRole('dialog', { name: `Features of ${name}` });
    await features.getByText('No features added.').waitFor();
    await features.getByRole('button', { name: 'Add feature' }).click();
    await features.getByText('Feature title is required.').waitFor();
    await features.getByLabel('Feature title').fill('Hourly rates');
    await features.getByRole('button', { name: 'Add feature' }).click();
    await features.getByRole('button', { name: 'Remove Hourly rates' }).waitFor();
    await features.getByRole('button', { name: 'Remove Hourly rates' }).click();
    await features.getByText('No features added.').waitFor();
    await features.getByLabel('Feature title').fill('Conversion endpoint');
    await features.getByRole('button', { name: 'Add feature' }).click();
    await features.getByRole('button', { name: 'Remove Conversion endpoint' }).waitFor();
    await features.getByRole('button', { name: 'Done' }).click();
    await row
      .getByRole('button', { name: `Features of ${name}` })
      .filter({ hasText: '1 feature' })
      .waitFor();

    await row.getByRole('button', { name: `Edit ${name}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit plan' });
    await edit.getByLabel('Amount (USD per year)').fill('15');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await edit.waitFor({ state: 'detached' });
    await row.getByText('$15.00').waitFor();

    await row.getByRole('button', { name: `Delete ${name}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this plan?' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await confirm.waitFor({ state: 'detached' });
    await row.waitFor({ state: 'detached' });
    await page.context().close();
  });

  describe.each(WIDTHS)('at $width px', ({ width, height }) => {
    const shot = (page: Page, name: string) => screenshot(page, `admin-${name}-${width}`);

    it('the plans, transactions and subscriptions screens', async () => {
      const page = await openPage(browser, width, height);
      await signInAsAdmin(page);

      await page.goto('/admin/plans');
      await tableLoaded(page, 'Plans is empty.');
      await shot(page, 'plans');
      const firstPlan = page.getByRole('button', { name: /^Features of / }).first();
      await firstPlan.click();
      await page.getByRole('dialog', { name: /^Features of / }).waitFor();
      await shot(page, 'plan-features');
      await page.keyboard.press('Escape');

      await page.goto('/admin/transactions');
      await tableLoaded(page, 'Transaction is empty.');
      await shot(page, 'transactions');

      await page.goto('/admin/subscriptions');
      await tableLoaded(page, 'Subscriptions is empty.');
      await page.getByRole('cell', { name: 'Active' }).first().waitFor();
      await shot(page, 'subscriptions');
      await page.context().close();
    });
  });
});

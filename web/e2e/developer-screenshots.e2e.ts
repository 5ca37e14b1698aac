import type { Browser, Page } from 'playwright-core';
import {
  createDeveloper,
  DEMO_APP,
  DEVELOPER,
  developerSession,
  launchBrowser,
  openAsDeveloper,
  openPage,
  pickApp,
  screenshot,
  signUpDeveloper,
  tableLoaded,
  WIDTHS,
} from './browser';

describe('developer portal screenshots for review', () => {
  let browser: Browser;
  let demoSession: string;
  let newcomerSession: string;

  beforeAll(async () => {
    browser = await launchBrowser();
    demoSession = await developerSession(DEVELOPER.email, DEVELOPER.password);
    const newcomer = await createDeveloper('screens');
    newcomerSession = await developerSession(newcomer.email, newcomer.password);
  });

  afterAll(async () => {
    await browser.close();
  });

  describe.each(WIDTHS)('at $width px', ({ width, height }) => {
    const shot = (page: Page, name: string, fullPage = true) =>
      screenshot(page, `developer-${name}-${width}`, fullPage);

    it('the signed-out pages', async () => {
      const page = await openPage(browser, width, height);
      await page.goto('/developer/signin');
      await page.getByRole('heading', { name: 'Sign in to AfroFX' }).waitFor();
      await shot(page, 'signin');

      await page.getByRole('link', { name: 'Create an account' }).click();
      await page.getByRole('heading', { name: 'Create your developer account' }).waitFor();
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByText('First name is required.').waitFor();
      await shot(page, 'signup-errors');

      await page.goto('/developer/request_password_reset');
      await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
      await shot(page, 'request-reset');

      await page.goto('/developer/reset_password/not-a-real-reset-code');
      await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
      await shot(page, 'reset');

      const { activationPath } = await signUpDeveloper(`activate-${width}`);
      await page.goto(activationPath);
      await page.getByText('Your account has been activated. You can now sign in.').waitFor();
      await shot(page, 'activation');

      await page.goto('/developer/activate_account/not-a-real-activation-token');
      await page.getByText('This activation link is invalid or has expired.').waitFor();
      await shot(page, 'activation-failed');
      await page.context().close();
    });

    it("the demo developer's pages", async () => {
      const page = await openAsDeveloper(browser, demoSession, '/developer/apps', width, height);
      await page.getByRole('button', { name: new RegExp(DEMO_APP) }).waitFor();
      await shot(page, 'apps');

      await pickApp(page, DEMO_APP);
      await page.getByRole('figure', { name: /^Requests per day from / }).waitFor();
      await page.getByText('Requests this month').waitFor();
      await shot(page, 'home');

      await page.goto('/developer/api');
      await page.getByTestId('key-public-key').waitFor();
      await shot(page, 'api-keys');

      await page.goto('/developer/request');
      await tableLoaded(page, 'Request is empty.');
      await shot(page, 'request');

      await page.goto('/developer/plans');
      await page.getByRole('progressbar').waitFor();
      await shot(page, 'plans-current');

      await page.getByRole('tab', { name: 'Plans' }).click();
      await page.getByText('Your plan').waitFor();
      await shot(page, 'plans-plans');

      await page.getByRole('tab', { name: 'Transactions' }).click();
      await page.getByText('demo-sandbox-0001').waitFor();
      await shot(page, 'plans-transactions');

      await page.goto('/developer/change_password');
      await page.getByLabel('Current password').waitFor();
      await shot(page, 'change-password');

      if (width < 1024) {
        await page.getByRole('button', { name: 'Menu' }).click();
        await page.getByRole('link', { name: 'Your Apps' }).waitFor({ state: 'visible' });
        await shot(page, 'sidebar-open', false);
        await page.mouse.click(width - 20, height / 2);
        await page.getByRole('link', { name: 'Your Apps' }).waitFor({ state: 'hidden' });
      } else {
        await page.getByRole('button', { name: 'Log out' }).click();
        await page.getByRole('dialog', { name: 'Log out?' }).waitFor();
        await shot(page, 'logout-confirm', false);
      }
      await page.context().close();
    });

    it('a newcomer without apps or a subscription, and the support modal', async () => {
      const page = await openAsDeveloper(browser, newcomerSession, '/developer/apps', width, height);
      await page.getByText('No apps created.').waitFor();
      await shot(page, 'apps-empty');

      if (width < 1024) await page.getByRole('button', { name: 'Menu' }).click();
      await page.getByRole('button', { name: 'Book a demo' }).click();
      await page.getByRole('dialog', { name: 'Exclusive Support and Demos!' }).waitFor();
      await shot(page, 'support-modal', false);
      await page.context().close();
    });
  });
});

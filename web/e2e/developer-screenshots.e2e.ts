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
  WIDTHS,
} from './browser';

// Full-page shots of each portal screen at both widths come from the accessibility spec (a11y-developer-*.png);
// these are the states it does not reach: form errors, a fresh activation, tabs, menus and dialogs.
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

    it('the sign-up errors and a successful activation', async () => {
      const page = await openPage(browser, width, height);
      await page.goto('/developer/signup');
      await page.getByRole('heading', { name: 'Create your developer account' }).waitFor();
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByText('First name is required.').waitFor();
      await shot(page, 'signup-errors');

      const { activationPath } = await signUpDeveloper(`activate-${width}`);
      await page.goto(activationPath);
      await page.getByText('Your account has been activated. You can now sign in.').waitFor();
      await shot(page, 'activation');
      await page.context().close();
    });

    it("the demo developer's plan tabs, and the menu or the log-out confirmation", async () => {
      const page = await openAsDeveloper(browser, demoSession, '/developer/apps', width, height);
      await pickApp(page, DEMO_APP);
      await page.goto('/developer/plans');
      await page.getByRole('progressbar').waitFor();
      await page.getByRole('tab', { name: 'Plans' }).click();
      await page.getByText('Your plan', { exact: true }).waitFor();
      await shot(page, 'plans-plans');

      await page.getByRole('tab', { name: 'Transactions' }).click();
      await page.getByText('demo-sandbox-0001').waitFor();
      await shot(page, 'plans-transactions');

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

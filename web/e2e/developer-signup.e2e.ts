import type { Browser } from 'playwright-core';
import {
  BASE_URL,
  launchBrowser,
  newestMailTo,
  openPage,
  pickApp,
  screenshot,
  signInAsDeveloper,
  signUpDeveloper,
  uniqueEmail,
} from './browser';

const ACTIVATION_LINK = /https?:\/\/[^\s"'<>]+\/developer\/activate_account\/[\w-]+/;

describe('developer sign-up to first API key', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser.close();
  });

  it('signs up, activates from the mail, signs in, creates and picks an app and gets a key shown once', async () => {
    const email = uniqueEmail('signup');
    const password = 'first-password-1';
    const page = await openPage(browser);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: BASE_URL });

    await page.goto('/developer/signup');
    await page.getByLabel('First name').fill('Chioma');
    await page.getByLabel('Last name').fill('Eze');
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page
      .getByRole('main')
      .getByText('Your account has successfully been created, kindly check your mail for activation.')
      .waitFor();

    const link = ACTIVATION_LINK.exec(await newestMailTo(email, ACTIVATION_LINK))?.[0];
    expect(link).toBeDefined();
    await page.goto(link!);
    await page.getByText('Your account has been activated. You can now sign in.').waitFor();
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.waitForURL('**/developer/signin');

    await signInAsDeveloper(page, email, password);
    expect(await page.getByRole('complementary', { name: 'Developer' }).textContent()).toContain(
      'Chioma Eze',
    );
    await page.getByText('No apps created.').waitFor();

    await page.getByLabel('App name').fill('E2E Checkout');
    await page.getByRole('button', { name: 'Create app' }).click();
    await page.getByRole('button', { name: /E2E Checkout/ }).waitFor();
    const pickedAt = Date.now();
    await pickApp(page, 'E2E Checkout');
    expect(Date.now() - pickedAt).toBeGreaterThanOrEqual(900);
    expect(
      await page.evaluate(() => JSON.parse(sessionStorage.getItem('afrofx-current-app') ?? 'null')?.name),
    ).toBe('E2E Checkout');
    await page.getByTestId('stat-month').filter({ hasText: /^0$/ }).waitFor();

    await page.getByRole('link', { name: 'API Keys' }).click();
    await page.getByText('No API key has been generated for this app yet.').waitFor();
    await page.getByRole('button', { name: 'Generate API key' }).click();
    await page.getByRole('status').filter({ hasText: 'Generating API key.' }).waitFor();
    const fresh = page.getByRole('region', { name: 'Copy your private key now' });
    await fresh
      .getByText('API key generated. Copy the private key now: it will not be shown again.')
      .waitFor();
    const privateKey = (await fresh.getByTestId('key-private-key').textContent())?.trim() ?? '';
    expect(privateKey).toMatch(/^sk_[^•]{16,}$/);

    await fresh.getByRole('button', { name: 'Copy private key' }).click();
    await page.getByRole('status').filter({ hasText: 'Text copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(privateKey);
    await screenshot(page, 'developer-api-keys-generated', false);

    await page.reload();
    const masked = page.getByTestId('key-private-key');
    await masked.waitFor();
    expect(await masked.count()).toBe(1);
    const maskedText = (await masked.textContent())?.trim() ?? '';
    expect(maskedText).toContain('•');
    expect(maskedText.endsWith(privateKey.slice(-4))).toBe(true);
    expect(await page.content()).not.toContain(privateKey);
    expect(await page.evaluate(() => JSON.stringify(sessionStorage))).not.toContain(privateKey);
    expect(await page.evaluate(() => JSON.stringify(localStorage))).not.toContain(privateKey);
    await page.context().close();
  });

  it('offers a fresh activation link when the sign-in is refused as not yet activated', async () => {
    const { account, activationPath } = await signUpDeveloper('resend');
    const page = await openPage(browser);
    await page.goto('/developer/signin');
    await page.getByLabel('E-mail address').fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page
      .locator('[role="status"][data-tone="error"]')
      .filter({ hasText: 'Kindly activate your account' })
      .waitFor();

    await page.getByRole('button', { name: 'Send a new activation link' }).click();
    await page
      .locator('[role="status"][data-tone="success"]')
      .filter({ hasText: 'a new activation link is on its way' })
      .waitFor();
    const freshLink = async () => {
      const link = ACTIVATION_LINK.exec(await newestMailTo(account.email, ACTIVATION_LINK))?.[0];
      if (link && !link.endsWith(activationPath)) return link;
      await new Promise((resolve) => setTimeout(resolve, 250));
      return freshLink();
    };
    await page.goto(await freshLink());
    await page.getByText('Your account has been activated.').waitFor();
    await signInAsDeveloper(page, account.email, account.password);
    await page.context().close();
  });
});

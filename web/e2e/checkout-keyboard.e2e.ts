// A purchase finished with the keyboard alone (no mouse click): the skip link, the sandbox checkout as a
// focus-trapping dialog that Esc closes and that gives focus back, axe on the checkout, then the confirmation that
// survives the reload, the receipt in the portal and in the outbox; and the three request counts that explain
// themselves on the page.
import type { Browser, Page } from 'playwright-core';
import {
  BASE_URL,
  createDeveloper,
  developerSession,
  launchBrowser,
  newestMailTo,
  openAsDeveloper,
  screenshot,
  seriousAccessibilityFindings,
  type DeveloperAccount,
} from './browser';

const PLAN = 'Starter';

/** The accessible name of the focused element, as far as the specs need it: its label, else its text. */
const focusedName = (page: Page) =>
  page.evaluate(() => {
    const active = document.activeElement as HTMLElement | null;
    return (active?.getAttribute('aria-label') ?? active?.textContent ?? '').trim();
  });

/** Presses Tab until the focused element's name matches, as a keyboard user moves through the page. */
async function tabTo(page: Page, name: RegExp, most = 80): Promise<void> {
  for (let i = 0; i < most; i++) {
    await page.keyboard.press('Tab');
    if (name.test(await focusedName(page))) return;
  }
  throw new Error(`Tab never reached ${name}`);
}

const focusIsInDialog = (page: Page) =>
  page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]')));

async function api<T>(session: string, path: string, body?: object): Promise<T> {
  const { token } = JSON.parse(session) as { token: string };
  const response = await fetch(`${BASE_URL}/v1/${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  const answer = (await response.json()) as { data: T; message: string };
  if (!response.ok) throw new Error(`${path}: ${response.status} ${answer.message}`);
  return answer.data;
}

function expectNoFindings(findings: string[]): void {
  if (findings.length > 0) throw new Error(`axe found serious or critical problems:\n${findings.join('\n')}`);
}

describe('a purchase with the keyboard alone', () => {
  let browser: Browser;
  let account: DeveloperAccount;
  let session: string;
  let appId = '';
  let reference = '';
  const appName = `Keyboard app ${Date.now().toString(36)}`;

  beforeAll(async () => {
    browser = await launchBrowser();
    account = await createDeveloper('keyboard');
    session = await developerSession(account.email, account.password);
    appId = (await api<{ _id: string }>(session, 'apps/create_app', { name: appName }))._id;
  }, 60_000);

  afterAll(async () => {
    await browser.close();
  });

  it('skips to the content, buys in the dialog (Tab stays in, Esc cancels, focus returns), and sees the receipt', async () => {
    const page = await openAsDeveloper(browser, session, '/developer/apps', 1280, 900);
    await page.getByRole('heading', { name: 'Your apps' }).waitFor();

    // The first Tab reaches the skip link, which moves focus to the page's content.
    await page.keyboard.press('Tab');
    expect(await focusedName(page)).toBe('Skip to main content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main-content');
    await tabTo(page, new RegExp(appName));
    await page.keyboard.press('Enter');
    await page.waitForURL('**/developer/home');

    await page.goto('/developer/plans?tab=plans');
    await page.getByRole('heading', { name: PLAN }).waitFor();
    const buyName = new RegExp(`^Buy plan ${PLAN} in USD$`);
    await tabTo(page, buyName);

    // Esc closes the dialog, cancels the payment cleanly, and gives focus back to the button that opened it.
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Test payment' });
    await dialog.waitFor();
    expect(await focusIsInDialog(page)).toBe(true);
    expect(await focusedName(page)).toBe('Pay');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page
      .getByRole('alert')
      .getByText('The payment window was closed before paying, so no plan was bought.')
      .waitFor();
    await page.waitForFunction(() =>
      document.activeElement?.getAttribute('aria-label')?.startsWith('Buy plan'),
    );
    expect(await focusedName(page)).toMatch(buyName);

    // Opened again: axe on the checkout, then Tab and Shift+Tab go round its buttons and never leave it.
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    expectNoFindings(await seriousAccessibilityFindings(page));
    await screenshot(page, 'checkout-keyboard-dialog-1280', false);
    const seen: string[] = [];
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Tab');
      expect(await focusIsInDialog(page)).toBe(true);
      seen.push(await focusedName(page));
    }
    expect(seen).toEqual(['Decline', 'Close', 'Pay', 'Decline']);
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    expect(await focusedName(page)).toBe('Close');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    expect(await focusedName(page)).toBe('Pay');

    const reloaded = page.waitForURL(/\/developer\/plans\?paid=afx_/);
    await page.keyboard.press('Enter');
    await reloaded;
    reference = new URL(page.url()).searchParams.get('paid')!;

    // The confirmation comes from the server's receipt, after the reload.
    await page
      .getByRole('status')
      .getByText(`Payment received — receipt sent to ${account.email}`)
      .waitFor({ timeout: 20_000 });
    await screenshot(page, 'checkout-keyboard-paid-1280');

    const mail = await newestMailTo(account.email, /Your AfroFX receipt/);
    expect(mail).toContain(`Reference: ${reference}`);
    expect(mail).toContain(`${PLAN} plan, 12 months:`);
    expect(mail).toContain('Payment fee (0.4%): USD');
    expect(mail).toMatch(/Total paid: USD [\d,]+\.\d{2}/);
    expect(mail).toMatch(/Period: .+ to .+ \(UTC\)/);
    expect(mail).toContain('AfroFX, Lagos, Nigeria');

    // The receipt in the portal, reached by keyboard: the Receipts entry, then the receipt's link.
    await tabTo(page, /^Receipts$/);
    await page.keyboard.press('Enter');
    await page.waitForURL('**/developer/receipts');
    await page.getByRole('link', { name: reference }).waitFor();
    await screenshot(page, 'receipts-list-1280');
    await tabTo(page, new RegExp(`^${reference}$`));
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/developer/receipts/${reference}`);
    await page.getByRole('heading', { name: 'Receipt' }).waitFor();
    await page.getByText('Payment fee (0.4%)').waitFor();
    await page.getByRole('button', { name: 'Print' }).waitFor();
    expectNoFindings(await seriousAccessibilityFindings(page));
    await screenshot(page, 'receipt-page-1280');
    await page.emulateMedia({ media: 'print' });
    expect(await page.getByRole('complementary', { name: 'Developer' }).isVisible()).toBe(false);
    await screenshot(page, 'receipt-page-print');
    await page.context().close();
  });

  it('shows the receipts and the receipt page at 375 px, and a new account an empty list', async () => {
    const page = await openAsDeveloper(browser, session, '/developer/receipts', 375, 812);
    await page.getByRole('link', { name: reference }).waitFor();
    await screenshot(page, 'receipts-list-375');
    await page.goto(`/developer/receipts/${reference}`);
    await page.getByText('Payment fee (0.4%)').waitFor();
    await screenshot(page, 'receipt-page-375');
    // The purchase's confirmation is the server's: the same address shows it again, on a phone too.
    await page.goto('/developer/apps');
    await page.getByRole('button', { name: new RegExp(appName) }).press('Enter');
    await page.waitForURL('**/developer/home');
    await page.goto(`/developer/plans?paid=${reference}`);
    await page.getByText(`Payment received — receipt sent to ${account.email}`).waitFor();
    await screenshot(page, 'checkout-keyboard-paid-375');
    await page.context().close();

    const other = await createDeveloper('no-receipts');
    const empty = await openAsDeveloper(
      browser,
      await developerSession(other.email, other.password),
      '/developer/receipts',
    );
    await empty.getByText('No receipts yet.').waitFor();
    await screenshot(empty, 'receipts-empty-1280');
    await empty.goto(`/developer/receipts/${reference}`);
    await empty.getByText('No receipt with this reference.').waitFor();
    await empty.context().close();
  });

  it('says on each page why the dashboard, the quota and the request log count the same calls differently', async () => {
    const { private_key: key } = await api<{ private_key: string }>(
      session,
      `account/generate_api_key/${appId}`,
      {},
    );
    const call = (path: string, headers: Record<string, string> = {}) =>
      fetch(`${BASE_URL}${path}`, { headers: { authorization: `Bearer ${key}`, ...headers } });
    const served = await call('/v1/rates');
    expect(served.status).toBe(200);
    const etag = served.headers.get('etag')!;
    expect((await call('/v1/rates', { 'if-none-match': etag })).status).toBe(304);
    expect((await call('/v1/rates?market=nowhere')).status).toBe(400);

    // The log is written in batches: wait until all three answers are in.
    for (let i = 0; i < 60; i++) {
      const analytics = await api<{ todayCount: number }>(session, `account/app_request_analytics/${appId}`);
      if (analytics.todayCount >= 3) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }

    for (const size of [
      { width: 1280, height: 900 },
      { width: 375, height: 812 },
    ]) {
      const page = await openAsDeveloper(browser, session, '/developer/apps', size.width, size.height);
      await page.getByRole('button', { name: new RegExp(appName) }).press('Enter');
      await page.waitForURL('**/developer/home');
      await page.getByTestId('stat-today').filter({ hasText: '3' }).waitFor();
      await page.getByRole('progressbar', { name: 'Requests used this month' }).waitFor();
      expect(await page.getByRole('progressbar').getAttribute('aria-valuetext')).toBe('1 of 10,000 requests');
      expect(await page.getByTestId('traffic-count-note').textContent()).toContain(
        'refusals (4xx) and 304 Not Modified included',
      );
      expect(await page.getByTestId('quota-count-note').textContent()).toBe(
        'Quota counts charged calls; refusals (4xx), 304 Not Modified and server errors (5xx) are free.',
      );
      await screenshot(page, `counts-dashboard-${size.width}`);

      await page.goto('/developer/request');
      await page.getByText(/: 3 rows in all, newest first\./).waitFor();
      expect(await page.getByTestId('log-count-note').textContent()).toContain(
        'share a row with their number',
      );
      await screenshot(page, `counts-request-log-${size.width}`);
      await page.context().close();
    }
  });
});

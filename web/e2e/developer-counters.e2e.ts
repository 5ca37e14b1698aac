// What the portal counts follows the developer's own calls: the plan page's quota catches up with /v1/usage within
// seconds and without a reload, and the request log keeps two different calls as two rows.
import type { Browser, Page } from 'playwright-core';
import {
  appOnPlan,
  asDeveloper,
  BASE_URL,
  createDeveloper,
  developerSession,
  launchBrowser,
  openAsDeveloper,
  pickApp,
  screenshot,
  WIDTHS,
} from './browser';

const withKey = (key: string, path: string) =>
  fetch(`${BASE_URL}${path}`, { headers: { authorization: `Bearer ${key}` } });

async function used(key: string): Promise<number> {
  const usage = (await (await withKey(key, '/v1/usage')).json()) as { data: { used: number } };
  return usage.data.used;
}

const quotaShown = async (page: Page) =>
  Number(
    await page.getByRole('progressbar', { name: 'Requests used this month' }).getAttribute('aria-valuenow'),
  );

describe('counters that follow the developer’s own calls', () => {
  let browser: Browser;
  let session: string;
  const appName = `Counters app ${Date.now().toString(36)}`;
  let key = '';
  let appId = '';

  beforeAll(async () => {
    browser = await launchBrowser();
    const developer = await createDeveloper('counters');
    session = await developerSession(developer.email, developer.password);
    ({ key, appId } = await appOnPlan(session, appName, 'Starter'));
  });

  afterAll(async () => {
    await browser.close();
  });

  it('shows the quota of /v1/usage within 5 s of a call, with no reload, and says when it was read', async () => {
    const page = await openAsDeveloper(browser, session, '/developer/apps');
    await pickApp(page, appName);
    await page.goto('/developer/plans');
    await page.getByRole('progressbar', { name: 'Requests used this month' }).waitFor();
    await page
      .getByTestId('quota-freshness')
      .filter({ hasText: /^Updated \d\d:\d\d:\d\d/ })
      .waitFor();
    const before = await quotaShown(page);
    for (let call = 0; call < 2; call++) expect((await withKey(key, '/v1/rates')).status).toBe(200);
    const now = await used(key);
    expect(now).toBe(before + 2);
    await page
      .locator(`[role="progressbar"][aria-label="Requests used this month"][aria-valuenow="${now}"]`)
      .waitFor({ timeout: 5000 });
    await page.close();
  });

  it.each(WIDTHS)(
    'lists two different refused calls as two rows of the request log, at $width px',
    async ({ width, height }) => {
      const calls = [
        `/v1/rates?market=street&w=${width}`,
        `/v1/convert?amount=-1&from=USD&to=NGN&w=${width}`,
      ];
      for (const call of calls) expect((await withKey(key, call)).status).toBe(400);
      // The log is written in batches a few seconds after the calls: the page opens once the server holds both.
      const logged = async () =>
        (await asDeveloper<Array<{ originalUrl: string }>>(session, `account/app_request/${appId}`)).filter(
          (entry) => entry.originalUrl.endsWith(`w=${width}`),
        ).length;
      const deadline = Date.now() + 15_000;
      while ((await logged()) < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
      const page = await openAsDeveloper(browser, session, '/developer/apps', width, height);
      await pickApp(page, appName);
      await page.goto('/developer/request');
      const rows = page.getByRole('row').filter({ hasText: `w=${width}` });
      await rows.nth(1).waitFor();
      expect(await rows.count()).toBe(2);
      await rows.filter({ hasText: '/v1/rates?market=street' }).waitFor();
      await rows.filter({ hasText: '/v1/convert?amount=-1' }).waitFor();
      expect(await rows.filter({ hasText: '×' }).count()).toBe(0);
      await screenshot(page, `developer-request-log-${width}`);
      await page.goto('/developer/plans');
      await page.getByRole('progressbar', { name: 'Requests used this month' }).waitFor();
      await screenshot(page, `developer-plans-quota-${width}`);
      await page.close();
    },
  );
});

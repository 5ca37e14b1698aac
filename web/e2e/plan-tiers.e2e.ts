// The plan card and the API agree (what the Starter card lists answers 200, what it does not answers a free
// 403 naming the plan that opens it), a new developer activates the free plan without a checkout, and a Starter
// customer upgrades mid-term paying the price less the credit shown.
import type { Browser, Locator, Page } from 'playwright-core';
import {
  appOnPlan,
  asDeveloper,
  BASE_URL,
  createDeveloper,
  developerSession,
  launchBrowser,
  openAsDeveloper,
  openPage,
  pickApp,
  screenshot,
  signInAsAdmin,
  tableLoaded,
  WIDTHS,
} from './browser';

const withKey = (key: string, path: string) =>
  fetch(`${BASE_URL}${path}`, { headers: { authorization: `Bearer ${key}` } });

const planCard = (page: Page, name: string): Locator =>
  page.locator('li').filter({ has: page.getByRole('heading', { name, exact: true }) });

/** The card's entitlement lines, as a customer reads them. */
const cardLines = async (card: Locator) =>
  (await card.getByTestId('entitlements').getByRole('listitem').allTextContents()).map((line) => line.trim());

/** A call for each line a card may list, and a call for what it may leave out. */
const CALLS: Array<{ line: RegExp; path: string }> = [
  { line: /^Latest rates for every market$/, path: '/v1/rates' },
  { line: /^Currency conversion endpoint$/, path: '/v1/convert?amount=100&from=dollar&to=naira&market=bank' },
  {
    line: /-day rate history$/,
    path: '/v1/rates/history?market=bank&base=naira&asset=dollar',
  },
  { line: /^OHLC candles$/, path: '/v1/rates/ohlc?market=bank&base=naira&asset=dollar&interval=day' },
  { line: /^Parallel-market premium$/, path: '/v1/rates/premium?base=naira&asset=dollar' },
];

describe('plans that deliver what their cards promise', () => {
  let browser: Browser;
  let session: string;
  const suffix = Date.now().toString(36);
  const starterApp = `Starter app ${suffix}`;
  let starterKey = '';

  beforeAll(async () => {
    browser = await launchBrowser();
    const developer = await createDeveloper('tiers');
    session = await developerSession(developer.email, developer.password);
    starterKey = (await appOnPlan(session, starterApp, 'Starter')).key;
  });

  afterAll(async () => {
    await browser.close();
  });

  it("answers a Starter key 200 on what the Starter card lists and a free 403 naming the plan on what it doesn't", async () => {
    const page = await openAsDeveloper(browser, session, '/api');
    const card = planCard(page, 'Starter');
    await card.getByTestId('entitlements').waitFor();
    const lines = await cardLines(card);
    expect(lines).toContain('Latest rates for every market');
    expect(lines).not.toContain('Currency conversion endpoint');
    expect(await cardLines(planCard(page, 'Growth'))).toEqual(
      expect.arrayContaining(['Currency conversion endpoint', '90-day rate history']),
    );
    const usedBefore = ((await (await withKey(starterKey, '/v1/usage')).json()) as { data: { used: number } })
      .data.used;
    let refused = 0;
    for (const { line, path } of CALLS) {
      const listed = lines.some((text) => line.test(text));
      const answer = await withKey(starterKey, path);
      const body = (await answer.json()) as { message: string };
      expect({ path, status: answer.status }).toEqual({ path, status: listed ? 200 : 403 });
      if (!listed) {
        refused++;
        expect(body.message).toMatch(
          /is not included in your Starter plan\. Upgrade to (Growth|Business) to use it\.$/,
        );
      }
    }
    expect(refused).toBeGreaterThan(0);
    const usedAfter = ((await (await withKey(starterKey, '/v1/usage')).json()) as { data: { used: number } })
      .data.used;
    // Only the listed call was counted: every 403 was free.
    expect(usedAfter - usedBefore).toBe(CALLS.length - refused);
    for (const { width, height } of WIDTHS) {
      await page.setViewportSize({ width, height });
      await screenshot(page, `api-plan-cards-entitlements-${width}`);
    }
    await page.context().close();
  });

  it('activates the free plan on a new app without a checkout, and its key gets 200 from /v1/rates', async () => {
    const developer = await createDeveloper('free');
    const freeSession = await developerSession(developer.email, developer.password);
    const appName = `Free app ${suffix}`;
    const appId = (await asDeveloper<{ _id: string }>(freeSession, 'apps/create_app', { name: appName }))._id;
    const page = await openAsDeveloper(browser, freeSession, '/developer/apps', 375, 812);
    await pickApp(page, appName);
    await page.goto('/developer/plans?tab=plans');
    const card = planCard(page, 'Free');
    await card.getByRole('button', { name: 'Activate the free plan Free' }).click();
    await page.getByRole('status').filter({ hasText: 'Your free plan is active.' }).waitFor();
    expect(await page.getByRole('dialog', { name: 'Test payment' }).count()).toBe(0);
    await screenshot(page, 'developer-plans-free-activated-375');
    await page.getByRole('tab', { name: 'Current Plan' }).click();
    await page.getByRole('tabpanel').getByRole('heading', { name: 'Free' }).waitFor();

    const keys = await asDeveloper<{ private_key: string }>(
      freeSession,
      `account/generate_api_key/${appId}`,
      {},
    );
    expect((await withKey(keys.private_key, '/v1/rates')).status).toBe(200);
    await page.context().close();
  });

  it('upgrades Starter to Growth now, showing the credit before paying, and Growth serves at once', async () => {
    const page = await openAsDeveloper(browser, session, '/developer/apps');
    await pickApp(page, starterApp);
    await page.goto('/developer/plans?tab=plans');
    const card = planCard(page, 'Growth');
    const credit = card.getByTestId('credit');
    await credit.waitFor();
    // Bought minutes ago: nearly the whole $120 comes back.
    expect(Number(/[\d.]+/.exec((await credit.textContent()) ?? '')?.[0])).toBeGreaterThan(119);
    await screenshot(page, 'developer-plans-upgrade-1280');
    const reloaded = page.waitForEvent('load');
    const initialized = page.waitForResponse((r) => r.url().includes('/v1/account/initialize_payment/'));
    await card.getByRole('button', { name: 'Upgrade to Growth now in USD' }).click();
    const checkout = ((await (await initialized).json()) as { data: { upgrade: { credit: number } } }).data;
    expect(checkout.upgrade.credit).toBeGreaterThan(119);
    const modal = page.getByRole('dialog', { name: 'Test payment' });
    await modal.getByRole('button', { name: 'Pay' }).click();
    await reloaded;
    expect(
      (await withKey(starterKey, '/v1/convert?amount=100&from=dollar&to=naira&market=bank')).status,
    ).toBe(200);
    await page.getByRole('tab', { name: 'Current Plan' }).click();
    await page.getByRole('tabpanel').getByRole('heading', { name: 'Growth' }).waitFor();
    await page.context().close();
  });

  it('lets the admin set what a plan opens, and the card lists it', async () => {
    const page = await openPage(browser);
    await signInAsAdmin(page);
    await page.goto('/admin/plans');
    await tableLoaded(page, 'Plans is empty.');
    const name = `Tier ${suffix}`;
    await page.getByRole('button', { name: 'Create Plan' }).click();
    const form = page.getByRole('dialog', { name: 'Create plan' });
    await form.getByLabel('Name').fill(name);
    await form.getByLabel('Amount (USD per year)').fill('60');
    await form.getByLabel('Requests per month').fill('20000');
    // A new plan opens the latest rates only until more is ticked.
    for (const endpoint of ['Currency conversion endpoint', 'CSV and NDJSON exports'])
      await form.getByRole('checkbox', { name: endpoint }).check();
    await form.getByRole('checkbox', { name: 'Transfer' }).uncheck();
    for (const { width, height } of WIDTHS) {
      await page.setViewportSize({ width, height });
      await screenshot(page, `admin-plan-form-entitlements-${width}`, false);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await form.getByRole('button', { name: 'Create plan' }).click();
    await form.waitFor({ state: 'detached' });
    // A draft until the admin puts it on sale.
    await page.getByRole('button', { name: `Put ${name} on sale` }).click();
    await page.getByRole('row').filter({ hasText: name }).getByText('On sale').waitFor();

    await page.goto('/api');
    const card = planCard(page, name);
    await card.getByTestId('entitlements').waitFor();
    const lines = await cardLines(card);
    expect(lines).toEqual([
      'Latest rates for the Cash and Bank markets',
      'Currency conversion endpoint',
      'CSV and NDJSON exports',
      'Up to 50 calls a second',
    ]);
    await page.context().close();
  });
});

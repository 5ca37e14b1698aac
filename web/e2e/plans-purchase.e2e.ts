import type { Browser, Page } from 'playwright-core';
import {
  asDeveloper,
  BASE_URL,
  DEVELOPER,
  developerSession,
  launchBrowser,
  openAsDeveloper,
  pickApp,
  screenshot,
  signInAsAdmin,
  openPage,
  tableLoaded,
} from './browser';

const PLAN = 'Starter';

/** The number in a price or an amount as shown ('$120.48 USD', 'NGN 120,480.00'). */
const amountIn = (text: string | null) => Number(/[\d,]+\.\d{2}/.exec(text ?? '')?.[0]?.replace(/,/g, ''));

/** What the page passed to `window.payWithBasqet`, recorded by a wrapper around the loaded script's function. */
interface RecordedConfig {
  fields: string[];
  public_key: string;
  email: string;
  amount: number | string;
  currency: string;
  metadata: { reference: string; transaction_id: string };
}

/** Wraps whatever `basqet.js` defines as `window.payWithBasqet`, recording each config it is called with. */
function recordPayWithBasqet() {
  const calls: RecordedConfig[] = [];
  let loaded: ((config: Record<string, unknown>) => void) | undefined;
  Object.defineProperty(window, 'basqetCalls', { value: calls });
  Object.defineProperty(window, 'payWithBasqet', {
    configurable: true,
    set(value: (config: Record<string, unknown>) => void) {
      loaded = value;
    },
    get() {
      return (
        loaded &&
        ((config: Record<string, unknown>) => {
          calls.push({ ...(config as unknown as RecordedConfig), fields: Object.keys(config).sort() });
          loaded!(config);
        })
      );
    },
  });
}

/** Opens the Plans tab of `app`, picked on the apps page as a developer would. */
async function openPlansTab(browser: Browser, session: string, app: string, width: number, height: number) {
  const page = await openAsDeveloper(browser, session, '/developer/apps', width, height);
  await page.addInitScript(recordPayWithBasqet);
  await pickApp(page, app);
  await page.goto('/developer/plans?tab=plans');
  await page.getByRole('heading', { name: PLAN }).waitFor();
  return page;
}

/**
 * Buys the plan in the stand-in modal, checking that the page called `payWithBasqet` with basqet-react's config
 * names and the amount the server fixed, and that the modal charges the price the tab showed.
 */
async function buy(page: Page, currency: 'USD' | 'NGN', answer: 'Pay' | 'Decline' | 'Close', shot?: string) {
  if (currency === 'NGN') await page.getByText('Pay in NGN').click();
  const card = page.locator('li').filter({ has: page.getByRole('heading', { name: PLAN }) });
  const price = card.getByTestId('price');
  await price.filter({ hasText: currency }).waitFor();
  const shown = amountIn(await price.textContent());

  const initialized = page.waitForResponse((r) => r.url().includes('/v1/account/initialize_payment/'));
  await card.getByRole('button', { name: `Buy plan ${PLAN} in ${currency}` }).click();
  const checkout = ((await (await initialized).json()) as { data: { amount: number; reference: string } })
    .data;
  const modal = page.getByRole('dialog', { name: 'Test payment' });
  await modal.getByText('Test payment — no money moves').waitFor();
  const calls = await page.evaluate(
    () => (window as unknown as { basqetCalls: RecordedConfig[] }).basqetCalls,
  );
  expect(calls).toHaveLength(1);
  expect(calls[0]).toMatchObject({
    fields: ['amount', 'currency', 'email', 'metadata', 'onAbandoned', 'onError', 'onSuccess', 'public_key'],
    public_key: 'pk_sandbox_afrofx',
    email: DEVELOPER.email,
    amount: checkout.amount,
    currency,
    metadata: { reference: checkout.reference, transaction_id: expect.stringMatching(/^txn_/) },
  });
  const charged = amountIn(await modal.getByText(new RegExp(`^${currency} `)).textContent());
  expect(charged).toBe(shown);
  if (shot) await screenshot(page, shot, false);
  await modal.getByRole('button', { name: answer }).click();
  return shown;
}

describe('buying a plan in the sandbox modal', () => {
  let browser: Browser;
  let session: string;
  const suffix = Date.now().toString(36);
  const usdApp = `USD app ${suffix}`;
  const ngnApp = `NGN app ${suffix}`;
  const heldApp = `Held app ${suffix}`;
  let usdAppId = '';

  beforeAll(async () => {
    browser = await launchBrowser();
    session = await developerSession(DEVELOPER.email, DEVELOPER.password);
    usdAppId = (await asDeveloper<{ _id: string }>(session, 'apps/create_app', { name: usdApp }))._id;
    await asDeveloper(session, 'apps/create_app', { name: ngnApp });
  });

  afterAll(async () => {
    await browser.close();
  });

  it('closing the modal before paying (onAbandoned) buys nothing and says why', async () => {
    const page = await openPlansTab(browser, session, usdApp, 1280, 900);
    await buy(page, 'USD', 'Close');
    await page
      .getByRole('alert')
      .getByText('The payment window was closed before paying, so no plan was bought.')
      .waitFor();
    await page.getByRole('tab', { name: 'Current Plan' }).click();
    await page.getByText('No active subscription.').waitFor();
    await page.context().close();
  });

  it('declining in the modal (onError) buys nothing and says why', async () => {
    const page = await openPlansTab(browser, session, usdApp, 1280, 900);
    await page.getByRole('note').getByText('Demo: payments are simulated by a sandbox provider').waitFor();
    await screenshot(page, 'developer-plans-buy-1280');
    await buy(page, 'USD', 'Decline');
    await page.getByRole('alert').getByText('The payment was declined, so no plan was bought.').waitFor();
    await screenshot(page, 'developer-plans-declined-1280');

    await page.getByRole('tab', { name: 'Current Plan' }).click();
    await page.getByText('No active subscription.').waitFor();
    await page.context().close();
  });

  it('buys in USD at 1280 px: active with its limit, in both lists, and the paid API serves it at once', async () => {
    const page = await openPlansTab(browser, session, usdApp, 1280, 900);
    const reloaded = page.waitForEvent('load');
    const paid = await buy(page, 'USD', 'Pay', 'developer-plans-modal-1280');
    await reloaded;

    const keys = await asDeveloper<{ private_key: string }>(
      session,
      `account/generate_api_key/${usdAppId}`,
      {},
    );
    const answer = await fetch(`${BASE_URL}/v1/rates`, {
      headers: { authorization: `Bearer ${keys.private_key}` },
    });
    expect(answer.status).toBe(200);

    await page.getByRole('tab', { name: 'Current Plan' }).click();
    const current = page.getByRole('tabpanel');
    await current.getByRole('heading', { name: PLAN }).waitFor();
    await current.getByText('Active', { exact: true }).waitFor();
    await current.getByText('10,000 requests').waitFor();
    await screenshot(page, 'developer-plans-current-1280');

    await page.getByRole('tab', { name: 'Transactions' }).click();
    await tableLoaded(page, 'Transaction is empty.');
    const row = page.getByRole('row').filter({ hasText: PLAN });
    expect(amountIn(await row.getByRole('cell').nth(2).textContent())).toBe(paid);
    await screenshot(page, 'developer-plans-transactions-1280');
    await page.context().close();
  });

  it('buys in NGN at 375 px on another app, at the naira price shown', async () => {
    const page = await openPlansTab(browser, session, ngnApp, 375, 812);
    const reloaded = page.waitForEvent('load');
    await buy(page, 'NGN', 'Pay', 'developer-plans-modal-375');
    await reloaded;
    await page.getByRole('tab', { name: 'Current Plan' }).click();
    await page.getByRole('tabpanel').getByRole('heading', { name: PLAN }).waitFor();
    await screenshot(page, 'developer-plans-current-375');

    await page.getByRole('tab', { name: 'Plans' }).click();
    await page.getByText('You currently have an active plan.').waitFor();
    await screenshot(page, 'developer-plans-refused-375');
    await page.context().close();
  });

  it('holds a payment that would stack a second upcoming plan, and shows it to the admin', async () => {
    const appId = (await asDeveloper<{ _id: string }>(session, 'apps/create_app', { name: heldApp }))._id;
    const plans = await asDeveloper<Array<{ _id: string; name: string }>>(
      session,
      'account/fetch_plans?page=1',
    );
    const plan = plans.find((p) => p.name === PLAN)!._id;
    // Three orders opened before paying (each replaces the last), then all paid at the provider.
    const checkouts = [];
    for (const currency of ['USD', 'NGN', 'USD'] as const) {
      checkouts.push(
        await asDeveloper<{ reference: string; transactionId: string; publicKey: string; currency: string }>(
          session,
          `account/initialize_payment/${appId}`,
          { plan, currency, isUpcoming: false },
        ),
      );
    }
    for (const checkout of checkouts) {
      const paid = await fetch(`${BASE_URL}/sandbox-pay/v1/transaction/${checkout.transactionId}/trigger`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${checkout.publicKey}` },
        body: JSON.stringify({ status: 'SUCCESSFUL' }),
      });
      expect(paid.status).toBe(200);
    }
    const answers = await Promise.allSettled(
      checkouts.map((checkout) =>
        asDeveloper(session, `account/create_transaction/${appId}`, {
          plan,
          currency: checkout.currency,
          isUpcoming: false,
          reference: checkout.reference,
        }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual(['fulfilled', 'fulfilled', 'rejected']);

    const page = await openPage(browser);
    await signInAsAdmin(page);
    await page.goto('/admin/transactions');
    await page.getByText(/held payments? to refund/).waitFor();
    await page
      .getByText(/already had an upcoming plan/)
      .first()
      .waitFor();
    await screenshot(page, 'admin-transactions-held-1280');
    await page.context().close();
  });

  it("shows both payments in the admin's transactions and subscriptions", async () => {
    const page = await openPage(browser);
    await signInAsAdmin(page);
    await page.goto('/admin/transactions');
    await tableLoaded(page, 'Transaction is empty.');
    await page.getByRole('row').filter({ hasText: usdApp }).filter({ hasText: 'USD' }).waitFor();
    await page.getByRole('row').filter({ hasText: ngnApp }).filter({ hasText: 'NGN' }).waitFor();
    await screenshot(page, 'admin-transactions-after-purchase-1280');

    await page.goto('/admin/subscriptions');
    await tableLoaded(page, 'Subscriptions is empty.');
    await page.getByRole('row').filter({ hasText: usdApp }).getByText('Active').waitFor();
    await page.getByRole('row').filter({ hasText: ngnApp }).getByText('Active').waitFor();
    await page.context().close();
  });
});

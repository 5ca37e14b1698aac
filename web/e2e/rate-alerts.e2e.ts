// A visitor's rate alert, end to end: made from the home page's form, confirmed from its mail, fired once per
// crossing of its line by the rates an admin publishes, and removed from the manage link of its mail.
import type { Browser } from 'playwright-core';
import {
  ADMIN,
  BASE_URL,
  launchBrowser,
  mailsTo,
  newestMailTo,
  openPage,
  siteRates,
  uniqueEmail,
} from './browser';

const PAIR = { market: 'bank', base: 'cedis', asset: 'canadian_dollar' } as const;

async function adminToken(): Promise<string> {
  const res = await fetch(`${BASE_URL}/v1/admin/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  return ((await res.json()) as { data: { token: string } }).data.token;
}

async function publish(token: string, sell: number) {
  const res = await fetch(`${BASE_URL}/v1/admin/create_rate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ ...PAIR, buy: sell - 0.2, sell }),
  });
  if (res.status !== 201) throw new Error(`create_rate: ${res.status} ${await res.text()}`);
}

/** Waits until `count` mails to `address` match. */
async function mailCount(address: string, matching: RegExp, count: number) {
  const deadline = Date.now() + 20_000;
  while (mailsTo(address, matching).length < count) {
    if (Date.now() > deadline) throw new Error(`fewer than ${count} mails to ${address} match ${matching}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return mailsTo(address, matching);
}

/** A sentinel alert on the same pair that fires on every publication: its mail says the evaluation has run. */
async function sentinel(email: string) {
  await fetch(`${BASE_URL}/v1/user/alerts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, ...PAIR, side: 'sell', condition: 'move', level: 0.01 }),
  });
  const link = /\/alerts\/confirm\/[\w.-]+/.exec(await newestMailTo(email, /Confirm the alert/))![0];
  await fetch(`${BASE_URL}/v1/user${link}`, { method: 'POST' });
}

describe('rate alerts by e-mail', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser.close();
  });

  it('is confirmed from its mail, fires once per crossing, and is removed from its manage link', async () => {
    const token = await adminToken();
    const current = (await siteRates(PAIR.market)).find(
      (r) => r.base === PAIR.base && r.asset === PAIR.asset,
    );
    const line = Math.round((current?.sell ?? 10) + 5);
    const fires = /The sell figure is now/;
    const watcher = uniqueEmail('sentinel');
    await sentinel(watcher);
    await publish(token, line - 1);

    const email = uniqueEmail('alert');
    const page = await openPage(browser);
    await page.goto('/');
    const form = page.getByRole('form', { name: 'Rate alert' });
    await form.getByLabel('Currency').selectOption(PAIR.asset);
    await form.getByLabel('Base').selectOption(PAIR.base);
    await form.getByLabel('Market').selectOption(PAIR.market);
    await form.getByLabel('Side').selectOption('sell');
    await form.getByLabel('When the rate').selectOption('above');
    await form.getByLabel('Threshold (GHS)').fill(String(line));
    await form.getByLabel('Alert e-mail address').fill(email);
    await form.getByRole('button', { name: 'Create alert' }).click();
    await page.getByText('Check your e-mail for a link to confirm your alert.').waitFor();

    const confirmPath = /\/alerts\/confirm\/[\w.-]+/.exec(await newestMailTo(email, /Confirm the alert/))![0];
    await page.goto(confirmPath);
    await page.getByText('Your alert is on').waitFor();
    await page.getByRole('link', { name: 'Manage your alerts' }).click();
    await page.getByText('CAD/GHS Bank sell rate rises above').waitFor();

    // Each step waits for the sentinel's mail of its publication, so that publications are evaluated in order.
    await publish(token, line - 0.5);
    await mailCount(watcher, fires, 1);
    await publish(token, line + 1);
    await mailCount(watcher, fires, 2);
    const [fired] = await mailCount(email, fires, 1);
    expect(fired).toContain(`GH₵${(line + 1).toFixed(2)}`);
    expect(fired).toContain('Bank market');
    expect(fired).toMatch(/publication of \w{3}-\d{2}-\d{4} .* UTC/);

    // Still above the line: no second alert.
    await publish(token, line + 2);
    await mailCount(watcher, fires, 3);
    expect(mailsTo(email, fires)).toHaveLength(1);

    // A fall past the re-arm margin, then a new crossing: a second alert.
    await publish(token, line * 0.98);
    await mailCount(watcher, fires, 4);
    await publish(token, line + 3);
    await mailCount(email, fires, 2);

    const managePath = /\/alerts\/manage\/[\w.-]+/.exec(mailsTo(email, fires)[0]!)![0];
    await page.goto(managePath);
    await page.getByRole('button', { name: 'Remove' }).click();
    await page.getByText('You have no alerts.').waitFor();
  });
});

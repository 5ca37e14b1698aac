import { execFileSync } from 'node:child_process';
import type { Browser, Page } from 'playwright-core';
import { BASE_URL, DEMO_APP, DEVELOPER, launchBrowser, openPage, screenshot } from './browser';

async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(`${BASE_URL}/v1/${path}`, {
    ...init,
    headers: { ...(init.body ? { 'content-type': 'application/json' } : {}), ...(init.headers ?? {}) },
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()).data as T;
}

/** A fresh private key of the demo developer's app (generating one rotates the app's keys). */
async function freshPrivateKey(): Promise<string> {
  const { token } = await api<{ token: string }>('account/signin', {
    method: 'POST',
    body: JSON.stringify(DEVELOPER),
  });
  const auth = { authorization: `Bearer ${token}` };
  // By name: other specs sharing this server add apps of their own to the demo developer.
  const app = (await api<Array<{ _id: string; name: string }>>('apps/all_apps', { headers: auth })).find(
    (candidate) => candidate.name === DEMO_APP,
  );
  const key = await api<{ private_key: string }>(`account/generate_api_key/${app!._id}`, {
    method: 'POST',
    headers: auth,
  });
  return key.private_key;
}

/** Console errors and CSP violations of the page from now on. */
function pageProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return problems;
}

async function openDocs(browser: Browser, width: number, height: number, section = '') {
  const page = await openPage(browser, width, height);
  const problems = pageProblems(page);
  await page.goto(`/docs${section}`);
  await page.getByRole('heading', { name: 'Quick start' }).waitFor();
  await page.getByText('/v1/currencies', { exact: true }).first().waitFor();
  return { page, problems };
}

/** Sends the latest-rates call from the page's Test Request with `key`, and waits for its 200 with rates. */
async function sendTestRequest(page: Page, key: string): Promise<void> {
  await page.getByRole('button', { name: /Test Request.*\/v1\/rates\)/ }).click();
  const client = page.getByRole('dialog');
  await client.getByPlaceholder('Token').fill(key);
  await client.getByRole('button', { name: /^Send/ }).first().click();
  await client.getByText(/"buy"/).first().waitFor();
  await client
    .getByText(/^200\b/)
    .first()
    .waitFor();
}

describe('paid API documentation', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser.close());

  it("opens from the API page's View Documentation in a new tab with the quick-start and only the paid calls", async () => {
    const page = await openPage(browser);
    await page.goto('/api');
    const [docs] = await Promise.all([
      page.context().waitForEvent('page'),
      page.getByRole('link', { name: /View Documentation/i }).click(),
    ]);
    const problems = pageProblems(docs);
    await docs.waitForURL('**/docs**');
    await docs.getByRole('heading', { name: 'Quick start' }).waitFor();
    expect(await docs.title()).toBe('AfroFX API documentation');
    for (const label of ['curl', 'JavaScript', 'Python']) {
      await docs.locator('.markdown strong', { hasText: new RegExp(`^${label}$`) }).waitFor();
    }
    for (const path of ['/v1/rates', '/v1/rates/history', '/v1/convert', '/v1/currencies']) {
      await docs.getByText(path, { exact: true }).first().waitFor();
    }
    const text = await docs.locator('body').innerText();
    expect(text).not.toMatch(/\/v1\/(admin|account|apps|user)\//);
    expect(problems).toEqual([]);
    await screenshot(docs, 'api-docs');
  });

  it('fits a 375 px phone without sideways scrolling', async () => {
    const { page, problems } = await openDocs(browser, 375, 812);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(problems).toEqual([]);
    await screenshot(page, 'api-docs-375', false);
  });

  it('tries the latest-rates call with a private key from the page', async () => {
    const key = await freshPrivateKey();
    const { page, problems } = await openDocs(browser, 1280, 900, '#tag/rates-api/GET/v1/rates');
    await sendTestRequest(page, key);
    expect(problems).toEqual([]);
    await screenshot(page, 'api-docs-try-it', false);
  });

  it('answers the Test Request when the site is opened at 127.0.0.1 rather than at PUBLIC_URL', async () => {
    const key = await freshPrivateKey();
    const page = await openPage(browser);
    const problems = pageProblems(page);
    const loopback = new URL(BASE_URL);
    loopback.hostname = '127.0.0.1';
    await page.goto(new URL('/docs#tag/rates-api/GET/v1/rates', loopback).href);
    await sendTestRequest(page, key);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("runs the documentation's curl example with a freshly generated key", async () => {
    const key = await freshPrivateKey();
    const openapi = (await (await fetch(`${BASE_URL}/v1/openapi.json`)).json()) as {
      info: { description: string };
    };
    const curl = /^curl .*$/m.exec(openapi.info.description)?.[0];
    expect(curl).toContain(`${BASE_URL}/v1/rates`);
    const output = execFileSync('bash', ['-c', `${curl} --fail --silent --show-error`], {
      env: { ...process.env, AFROFX_KEY: key },
      encoding: 'utf8',
    });
    const body = JSON.parse(output) as {
      data: Array<{ base: string; market: string; buy: number; sell: number }>;
    };
    expect(body.data.length).toBe(4);
    expect(body.data.every((r) => r.base === 'naira' && r.market === 'bank' && r.buy < r.sell)).toBe(true);
  });
});

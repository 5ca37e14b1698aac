import { execFileSync } from 'node:child_process';
import type { Browser } from 'playwright-core';
import { BASE_URL, DEVELOPER, launchBrowser, openPage, screenshot } from './browser';

async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(`${BASE_URL}/v1/${path}`, {
    ...init,
    headers: { ...(init.body ? { 'content-type': 'application/json' } : {}), ...(init.headers ?? {}) },
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()).data as T;
}

describe('paid API documentation', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser.close());

  it("opens from the API page's View Documentation in a new tab and renders the quick-start and the paid calls", async () => {
    const page = await openPage(browser);
    await page.goto('/api');
    const [docs] = await Promise.all([
      page.context().waitForEvent('page'),
      page.getByRole('link', { name: /View Documentation/i }).click(),
    ]);
    await docs.waitForURL('**/docs**');
    await docs.getByRole('heading', { name: 'Quick start' }).waitFor();
    await docs.locator('#operations-tag-Rates_API').waitFor();
    for (const path of ['/v1/rates', '/v1/rates/history', '/v1/convert', '/v1/currencies']) {
      await docs.getByText(path, { exact: true }).first().waitFor();
    }
    await screenshot(docs, 'api-docs');
  });

  it("runs the documentation's curl example with a freshly generated key", async () => {
    const { token } = await api<{ token: string }>('account/signin', {
      method: 'POST',
      body: JSON.stringify(DEVELOPER),
    });
    const auth = { authorization: `Bearer ${token}` };
    const [app] = await api<Array<{ _id: string }>>('apps/all_apps', { headers: auth });
    const key = await api<{ private_key: string }>(`account/generate_api_key/${app!._id}`, {
      method: 'POST',
      headers: auth,
    });

    const openapi = (await (await fetch(`${BASE_URL}/v1/openapi.json`)).json()) as {
      info: { description: string };
    };
    const curl = /^curl .*$/m.exec(openapi.info.description)?.[0];
    expect(curl).toContain(`${BASE_URL}/v1/rates`);
    const output = execFileSync('bash', ['-c', `${curl} --fail --silent --show-error`], {
      env: { ...process.env, AFROFX_KEY: key.private_key },
      encoding: 'utf8',
    });
    const body = JSON.parse(output) as {
      data: Array<{ base: string; market: string; buy: number; sell: number }>;
    };
    expect(body.data.length).toBe(4);
    expect(body.data.every((r) => r.base === 'naira' && r.market === 'bank' && r.buy < r.sell)).toBe(true);
  });
});

import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Market, Rate } from '@afrofx/shared';
import path from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';

/**
 * Set by scripts/e2e.mjs, which starts the built app for these specs: a server of its own for each jest worker (its
 * own data, mail outbox and sign-in limits), so that specs running side by side never share state.
 */
const lane = process.env.JEST_WORKER_ID ?? '1';
export const BASE_URL =
  process.env[`E2E_BASE_URL_${lane}`] ?? process.env.E2E_BASE_URL ?? 'http://localhost:3000';
const DATA_DIR =
  process.env[`E2E_DATA_DIR_${lane}`] ?? process.env.E2E_DATA_DIR ?? path.resolve(__dirname, '../../data');

export const ADMIN = { email: 'admin@example.com', password: 'afrofx-admin' };
/** The demo developer seeded with 'Demo Remittance App', its keys, a Growth plan and a month of requests. */
export const DEVELOPER = { email: 'developer@example.com', password: 'afrofx-developer' };
export const DEMO_APP = 'Demo Remittance App';

const ARTIFACTS_DIR = path.resolve(__dirname, '../../e2e-artifacts');

/**
 * The browser of a spec. Under `npm run e2e` every spec connects to the one Chromium that scripts/e2e.mjs started
 * (launching one per spec cost about 3 s each); closing the connection closes the spec's contexts, not the browser.
 * Run alone, a spec launches its own.
 */
export function launchBrowser(): Promise<Browser> {
  const shared = process.env.E2E_BROWSER_WS_ENDPOINT;
  if (shared) return chromium.connect(shared);
  const options = JSON.parse(readFileSync(path.join(__dirname, 'chromium-launch.json'), 'utf8')) as {
    headless: boolean;
    args: string[];
  };
  return chromium.launch({ ...options, executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium' });
}

/** The site's latest rates of a market, as the home page reads them. */
export async function siteRates(market: Market): Promise<Rate[]> {
  const response = await fetch(`${BASE_URL}/v1/user/fetch_rates/${market}`);
  if (!response.ok) throw new Error(`GET /v1/user/fetch_rates/${market}: ${response.status}`);
  return ((await response.json()) as { data: Rate[] }).data;
}

/** A fresh page of `width` × `height` in its own browser context (own session storage). */
export async function openPage(browser: Browser, width = 1280, height = 900): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height }, baseURL: BASE_URL });
  return context.newPage();
}

export const DESKTOP = { width: 1280, height: 900 } as const;
export const PHONE = { width: 375, height: 812 } as const;
/** The two screens every page is checked on: a desktop and a phone. */
export const WIDTHS = [DESKTOP, PHONE] as const;

/** Saves a PNG of the whole page (or of the viewport only) to e2e-artifacts/<name>.png. */
export async function screenshot(page: Page, name: string, fullPage = true): Promise<void> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({ path: path.join(ARTIFACTS_DIR, `${name}.png`), fullPage, animations: 'disabled' });
}

/** Waits until a data table has its rows (not the loading placeholders) or shows its empty state. */
export async function tableLoaded(page: Page, emptyMessage: string): Promise<void> {
  await page.locator('table:not([aria-busy]) tbody tr').first().or(page.getByText(emptyMessage)).waitFor();
}

/**
 * Waits until the app has taken over the page the server drew (hydration has committed), so that a click reaches the
 * app. It reads React's root: no attribute of ours says so, and the site needs none.
 */
export async function appHasTakenOver(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const root = document.getElementById('root') as (HTMLElement & Record<string, unknown>) | null;
    const key = root && Object.keys(root).find((name) => name.startsWith('__reactContainer$'));
    const fiber = key
      ? (root[key] as { stateNode?: { current?: { memoizedState?: { isDehydrated?: boolean } } } })
      : undefined;
    return fiber?.stateNode?.current?.memoizedState?.isDehydrated === false;
  });
}

/**
 * Waits until a field shows `expected`, and fails saying what it shows instead. A page the server drew shows the
 * figures it was drawn with until the app takes it over, a moment after it appears: a value typed in that moment is
 * answered for once the app has it.
 */
export async function fieldShows(field: Locator, expected: string): Promise<void> {
  const element = await field.elementHandle();
  try {
    await field
      .page()
      .waitForFunction(([input, value]) => (input as HTMLInputElement).value === value, [
        element,
        expected,
      ] as const);
  } catch {
    throw new Error(
      `the field shows ${JSON.stringify(await field.inputValue())}, not ${JSON.stringify(expected)}`,
    );
  }
}

/**
 * The refusal of a throttled call (sign-in, a link): every spec on one server is one loopback client, so the
 * suite as a whole can meet limits that a single visitor would not.
 */
export function throttleRefusal(page: Page): Locator {
  return page.getByText(/Too many attempts\. Try again in (\d+) seconds?/).first();
}

/** Waits as long as a shown throttle refusal asks, and a second more. */
export async function waitOutThrottle(page: Page, refusal: Locator): Promise<void> {
  const seconds = Number(/in (\d+) seconds/.exec((await refusal.textContent()) ?? '')?.[1] ?? 60);
  // Said in the run's output: a wait here is time the suite spends doing nothing.
  process.stderr.write(`e2e: waiting ${seconds + 1} s out a limit on ${page.url()}\n`);
  await page.waitForTimeout((seconds + 1) * 1000);
}

/**
 * Signs in through the form. The suite signs the demo admin in more often than the sign-in limit allows one client
 * (10 a minute per address); a refusal says how long to wait, and the sign-in is tried again after that.
 */
export async function signInAsAdmin(page: Page): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await page.goto('/admin/login');
    await page.getByLabel('E-mail address').fill(ADMIN.email);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const throttled = throttleRefusal(page);
    await Promise.race([page.waitForURL('**/admin/emails'), throttled.waitFor()]);
    if (page.url().endsWith('/admin/emails')) return;
    if (attempt === 3) throw new Error('the admin sign-in was refused three times');
    await waitOutThrottle(page, throttled);
  }
}

function decodeQuotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** The decoded text of every leaf part of a MIME message. */
function mimeTexts(entity: string): string[] {
  const split = entity.search(/\r?\n\r?\n/);
  const headers = (split === -1 ? entity : entity.slice(0, split)).replace(/\r?\n[ \t]+/g, ' ');
  const body = split === -1 ? '' : entity.slice(split).replace(/^\r?\n\r?\n/, '');
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(headers)?.[1];
  if (/content-type:\s*multipart\//i.test(headers) && boundary) {
    const parts = body.split(`--${boundary}`).slice(1);
    return parts
      .filter((part) => !part.startsWith('--'))
      .flatMap((part) => mimeTexts(part.replace(/^\r?\n/, '')));
  }
  const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(headers)?.[1]?.toLowerCase();
  if (encoding === 'base64') return [Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')];
  if (encoding === 'quoted-printable') return [decodeQuotedPrintable(body)];
  return [body];
}

/** The decoded texts of every .eml in the outbox addressed to `address` whose text matches `matching`. */
export function mailsTo(address: string, matching: RegExp): string[] {
  const outbox = path.join(DATA_DIR, 'outbox');
  const files = (() => {
    try {
      return readdirSync(outbox).filter((name) => name.endsWith('.eml'));
    } catch {
      return [];
    }
  })();
  return files
    .map((name) => readFileSync(path.join(outbox, name), 'utf8'))
    .filter((raw) => new RegExp(`^To:.*${address.replace(/[.+]/g, '\\$&')}`, 'im').test(raw))
    .map((raw) => mimeTexts(raw).join('\n'))
    .filter((text) => matching.test(text));
}

/**
 * The decoded text of the newest .eml in the outbox addressed to `address` (and whose text matches
 * `matching`, when given), waiting up to `timeoutMs` for it.
 */
export async function newestMailTo(address: string, matching?: RegExp, timeoutMs = 15000): Promise<string> {
  const outbox = path.join(DATA_DIR, 'outbox');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const files = (() => {
      try {
        return readdirSync(outbox).filter((name) => name.endsWith('.eml'));
      } catch {
        return [];
      }
    })();
    const texts = files
      .map((name) => path.join(outbox, name))
      .map((file) => ({ file, raw: readFileSync(file, 'utf8'), time: statSync(file).mtimeMs }))
      .filter(({ raw }) => new RegExp(`^To:.*${address.replace(/[.+]/g, '\\$&')}`, 'im').test(raw))
      .sort((a, b) => b.time - a.time)
      .map(({ raw }) => mimeTexts(raw).join('\n'));
    const newest = texts.find((text) => !matching || matching.test(text));
    if (newest) return newest;
    if (Date.now() > deadline) throw new Error(`no mail to ${address} in ${outbox}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export interface DeveloperAccount {
  email: string;
  password: string;
  first_name: string;
  last_name: string;
}

/** A unique address for an account made by a spec. */
export function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.com`;
}

async function callApi(path: string, init?: RequestInit): Promise<{ data: unknown; message: string }> {
  const response = await fetch(`${BASE_URL}/v1/${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', ...init?.headers },
  });
  const body = (await response.json()) as { data: unknown; message: string };
  if (!response.ok)
    throw new Error(`${init?.method ?? 'GET'} /v1/${path}: ${response.status} ${body.message}`);
  return body;
}

/** Signs a new developer up through the API; answers the account and the path of its activation link. */
export async function signUpDeveloper(
  prefix: string,
): Promise<{ account: DeveloperAccount; activationPath: string }> {
  const account = {
    email: uniqueEmail(prefix),
    password: 'e2e-password-1',
    first_name: 'Tobi',
    last_name: 'Adeyemi',
  };
  await callApi('account/signup', { method: 'POST', body: JSON.stringify(account) });
  const activationLink = /\/developer\/activate_account\/[\w-]+/;
  const activationPath = activationLink.exec(await newestMailTo(account.email, activationLink))?.[0];
  if (!activationPath) throw new Error(`no activation link in the mail to ${account.email}`);
  return { account, activationPath };
}

/** A new developer account, activated through the e-mailed link. */
export async function createDeveloper(prefix: string): Promise<DeveloperAccount> {
  const { account, activationPath } = await signUpDeveloper(prefix);
  await callApi(activationPath.replace('/developer/activate_account/', 'account/activate_account/'));
  return account;
}

/** A developer sign-in got through the API: the session cookie's token and the greeting the page keeps, as JSON. */
export async function developerSession(email: string, password: string): Promise<string> {
  const { data } = await callApi('account/signin', {
    method: 'POST',
    body: JSON.stringify({ email, password }),
  });
  const { token, user } = data as { token: string; user: { first_name: string; last_name: string } };
  return JSON.stringify({ token, userData: { first_name: user.first_name, last_name: user.last_name } });
}

/** Calls the API as the developer of `session`; a body makes it a POST. */
export async function asDeveloper<T>(session: string, path: string, body?: object): Promise<T> {
  const { token } = JSON.parse(session) as { token: string };
  const method = body ? 'POST' : 'GET';
  const response = await fetch(`${BASE_URL}/v1/${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  const answer = (await response.json()) as { data: T; message: string };
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${answer.message}`);
  return answer.data;
}

/** An app of the developer of `session`, on `plan` paid in the sandbox, and its private key. */
export async function appOnPlan(session: string, name: string, plan: string) {
  const appId = (await asDeveloper<{ _id: string }>(session, 'apps/create_app', { name }))._id;
  const plans = await asDeveloper<Array<{ _id: string; name: string }>>(
    session,
    'account/fetch_plans?page=1',
  );
  const planId = plans.find((p) => p.name === plan)!._id;
  const checkout = await asDeveloper<{ reference: string; transactionId: string; publicKey: string }>(
    session,
    `account/initialize_payment/${appId}`,
    { plan: planId, currency: 'USD', isUpcoming: false },
  );
  const paid = await fetch(`${BASE_URL}/sandbox-pay/v1/transaction/${checkout.transactionId}/trigger`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${checkout.publicKey}` },
    body: JSON.stringify({ status: 'SUCCESSFUL' }),
  });
  expect(paid.status).toBe(200);
  await asDeveloper(session, `account/create_transaction/${appId}`, {
    plan: planId,
    currency: 'USD',
    isUpcoming: false,
    reference: checkout.reference,
  });
  const keys = await asDeveloper<{ private_key: string }>(session, `account/generate_api_key/${appId}`, {});
  return { appId, key: keys.private_key };
}

/** A fresh page of `width` × `height` signed in with `session` (the stored JSON), at `path`. */
export async function openAsDeveloper(
  browser: Browser,
  session: string,
  path: string,
  width = 1280,
  height = 900,
): Promise<Page> {
  const page = await openPage(browser, width, height);
  const { token, userData } = JSON.parse(session) as { token: string; userData: object };
  await page
    .context()
    .addCookies([
      { name: 'afrofx_session', value: token, url: `${BASE_URL}/v1/`, httpOnly: true, sameSite: 'Strict' },
    ]);
  await page.goto('/developer/request_password_reset');
  await page.evaluate((stored) => localStorage.setItem('afrofx', stored), JSON.stringify({ userData }));
  await page.goto(path);
  return page;
}

/** Signs in on the developer sign-in page and waits for the app list. */
export async function signInAsDeveloper(page: Page, email = DEVELOPER.email, password = DEVELOPER.password) {
  await page.goto('/developer/signin');
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/developer/apps');
}

/** Picks an app on /developer/apps and waits for its dashboard. */
export async function pickApp(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: new RegExp(name) }).click();
  await page.waitForURL('**/developer/home');
}

/** Serious and critical axe-core findings on the page as it is now (rule id, help and the first offending nodes). */
export async function seriousAccessibilityFindings(page: Page): Promise<string[]> {
  // Only violations are read, so axe need not keep node details for the rules that pass (a tenth of its time here).
  // Legacy mode runs axe.run in the page itself. The default opens a blank page per call to merge the frames'
  // results, about a second of a two-second check here; these pages have no cross-origin frames for it to merge.
  const { violations } = await new AxeBuilder({ page })
    .options({ resultTypes: ['violations'] })
    .setLegacyMode(true)
    .analyze();
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.impact} ${violation.id}: ${violation.help} (${violation.nodes
          .slice(0, 3)
          .map((node) => node.target.join(' '))
          .join(', ')})`,
    );
}

import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Set by scripts/e2e.mjs, which starts the built app for these specs. */
export const BASE_URL = process.env.E2E_BASE_URL ?? 'http://localhost:3000';
const DATA_DIR = process.env.E2E_DATA_DIR ?? path.resolve(__dirname, '../../data');

export const ADMIN = { email: 'admin@example.com', password: 'afrofx-admin' };

const ARTIFACTS_DIR = path.resolve(__dirname, '../../e2e-artifacts');

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A fresh page of `width` × `height` in its own browser context (own session storage). */
export async function openPage(browser: Browser, width = 1280, height = 900): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height }, baseURL: BASE_URL });
  return context.newPage();
}

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

export async function signInAsAdmin(page: Page): Promise<void> {
  await page.goto('/admin/login');
  await page.getByLabel('E-mail address').fill(ADMIN.email);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/admin/emails');
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

/** The decoded text of the newest .eml in the outbox addressed to `address`, waiting up to `timeoutMs` for it. */
export async function newestMailTo(address: string, timeoutMs = 15000): Promise<string> {
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
    const mails = files
      .map((name) => path.join(outbox, name))
      .map((file) => ({ file, raw: readFileSync(file, 'utf8'), time: statSync(file).mtimeMs }))
      .filter(({ raw }) => new RegExp(`^To:.*${address.replace(/[.+]/g, '\\$&')}`, 'im').test(raw))
      .sort((a, b) => b.time - a.time);
    const [newest] = mails;
    if (newest) return mimeTexts(newest.raw).join('\n');
    if (Date.now() > deadline) throw new Error(`no mail to ${address} in ${outbox}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

import http from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { BASE_URL, launchBrowser, openPage, screenshot, signInAsAdmin, uniqueEmail } from './browser';

const PASSWORD = 'amber-lantern-quarry-58';
/**
 * The server's slow-down (sign-in-slowdown.ts): after 5 failures each further one doubles the wait, from 1 s. Ten
 * failures leave a 32 s lock, long enough to lift it through the console, on a busy machine, while it holds.
 */
const FREE_FAILURES = 5;
const FAILURES = 10;

/**
 * A wrong password for `email` from the loopback address 127.0.0.`stranger` (no device cookie): strangers guess
 * from many addresses, so no per-address limit stops them, and the owner's own address has spent none of its tries.
 */
function strangerFails(email: string, stranger: number): Promise<number> {
  const { hostname, port } = new URL(BASE_URL);
  const body = JSON.stringify({ email, password: 'not-the-password-at-all' });
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: hostname === 'localhost' ? '127.0.0.1' : hostname,
        port,
        path: '/v1/admin/authenticate',
        method: 'POST',
        localAddress: `127.0.0.${stranger}`,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** Locks `email` as strangers would: each failure after the free ones waits out the lock the previous one set. */
async function lockOut(email: string): Promise<void> {
  for (let failures = 1; failures <= FAILURES; failures++) {
    expect(await strangerFails(email, 10 + failures)).toBe(401);
    if (failures >= FREE_FAILURES && failures < FAILURES) {
      const lockSeconds = 2 ** (failures - FREE_FAILURES);
      await new Promise((resolve) => setTimeout(resolve, lockSeconds * 1000 + 200));
    }
  }
}

async function ownerSignsIn(page: Page, email: string): Promise<void> {
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describe('admin sign-in lock', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser.close();
  });

  it("a second admin lifts a stranger's lock on an admin from the Users screen; the owner signs in at once", async () => {
    const admin = await openPage(browser);
    await signInAsAdmin(admin);
    const owner = uniqueEmail('locked-admin');
    const created = await admin.request.post('/v1/admin/create_user', {
      data: { email: owner, password: PASSWORD },
      headers: { 'X-Requested-With': 'fetch' },
    });
    expect(created.status()).toBe(201);
    await admin.goto('/admin/users');

    await lockOut(owner);
    // The owner, on a browser that has not signed in before, is refused with the right password.
    const ownerPage = await openPage(browser);
    await ownerPage.goto('/admin/login');
    await ownerSignsIn(ownerPage, owner);
    const refusal = ownerPage.getByText(
      /Too many failed sign-ins for this account\. Try again in (\d+) seconds?/,
    );
    await refusal.first().waitFor();
    const refusedAt = Date.now();
    const lockSeconds = Number(/in (\d+) second/.exec((await refusal.first().textContent()) ?? '')?.[1]);
    expect(lockSeconds).toBeGreaterThan(0);

    // The second admin, with the keyboard only: the address, then the confirmation naming it.
    await admin.getByRole('button', { name: 'Lift Sign-in Lock' }).focus();
    await admin.keyboard.press('Enter');
    const form = admin.getByRole('dialog', { name: 'Lift Sign-in Lock' });
    await form.getByLabel('E-mail address').waitFor();
    await admin.keyboard.type(owner);
    await admin.keyboard.press('Enter');
    const confirm = admin.getByRole('dialog', { name: 'Lift this sign-in lock?' });
    await confirm.getByText(owner, { exact: false }).waitFor();
    await screenshot(admin, 'admin-lift-sign-in-lock-confirm', false);
    await confirm.getByRole('button', { name: 'Lift Lock' }).focus();
    await admin.keyboard.press('Enter');
    await admin
      .locator('[role="status"][data-tone="success"]')
      .filter({ hasText: 'The sign-in lock on this address is lifted.' })
      .waitFor();
    await confirm.waitFor({ state: 'detached' });
    await screenshot(admin, 'admin-lift-sign-in-lock-done', false);

    await ownerSignsIn(ownerPage, owner);
    await ownerPage.waitForURL('**/admin/emails');
    // In before the lock would have let them: the lift, not the wait, let the owner in.
    expect(Date.now() - refusedAt).toBeLessThan(lockSeconds * 1000);
    await admin.context().close();
    await ownerPage.context().close();
  }, 120_000);
});

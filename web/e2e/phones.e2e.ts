import type { Browser, Locator, Page } from 'playwright-core';
import {
  DESKTOP,
  PHONE,
  BASE_URL,
  DEMO_APP,
  launchBrowser,
  openPage,
  pickApp,
  screenshot,
  signInAsAdmin,
  signInAsDeveloper,
  tableLoaded,
} from './browser';

interface Screen {
  name: string;
  path: string;
  table: string;
  emptyMessage: string;
  /** A label every card shows (a column header), to tell the cards from a table. */
  label: string;
}

const adminScreens: Screen[] = [
  { name: 'rates', path: '/admin/rates', table: 'Rates', emptyMessage: 'Rates is empty.', label: 'Market' },
  { name: 'users', path: '/admin/users', table: 'Users', emptyMessage: 'Users is empty.', label: 'Status' },
  {
    name: 'emails',
    path: '/admin/emails',
    table: 'Mailing list',
    emptyMessage: 'Mailing list is empty.',
    label: 'Status',
  },
  { name: 'plans', path: '/admin/plans', table: 'Plans', emptyMessage: 'Plans is empty.', label: 'Amount' },
  {
    name: 'transactions',
    path: '/admin/transactions',
    table: 'Transactions',
    emptyMessage: 'Transaction is empty.',
    label: 'Amount',
  },
  {
    name: 'subscriptions',
    path: '/admin/subscriptions',
    table: 'Subscriptions',
    emptyMessage: 'Subscriptions is empty.',
    label: 'Limit',
  },
  { name: 'apps', path: '/admin/apps', table: 'Apps', emptyMessage: 'Apps is empty.', label: 'Creator' },
];

const developerScreens: Screen[] = [
  {
    name: 'request',
    path: '/developer/request',
    table: 'Request log',
    emptyMessage: 'Request is empty.',
    label: 'Latency',
  },
  {
    name: 'transactions',
    path: '/developer/plans?tab=transactions',
    table: 'Transactions',
    emptyMessage: 'Transaction is empty.',
    label: 'Amount',
  },
];

/** Seen on screen: a screen-reader-only element is a 1 px box, which Playwright counts as visible. */
async function seen(locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  return box !== null && box.width > 1 && box.height > 1;
}

async function pageScrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
}

/** Every row's buttons are on screen, inside the phone's width, and would take a tap (nothing covers them). */
async function everyActionReachable(page: Page, rows: Locator, rowCount: number): Promise<number> {
  const width = page.viewportSize()!.width;
  let checked = 0;
  // Only the rows counted: scrolling to the last ones may load the next page.
  for (let index = 0; index < rowCount; index++) {
    for (const button of await rows.nth(index).getByRole('button').all()) {
      await button.scrollIntoViewIfNeeded();
      expect(await button.isVisible()).toBe(true);
      const box = (await button.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(width);
      await button.click({ trial: true });
      checked += 1;
    }
  }
  return checked;
}

async function openScreen(page: Page, screen: Screen): Promise<Locator> {
  await page.goto(screen.path);
  await tableLoaded(page, screen.emptyMessage);
  const table = page.getByRole('table', { name: screen.table });
  await table.locator('tbody tr').first().waitFor();
  return table;
}

/**
 * At 375 px: rows are cards with labelled lines, nothing scrolls sideways, every action can be tapped.
 * Answers how many rows and row actions were checked.
 */
async function checkPhone(
  page: Page,
  screen: Screen,
  prefix: string,
): Promise<{ rows: number; actions: number }> {
  const table = await openScreen(page, screen);
  const rows = table.locator('tbody tr');
  const rowCount = await rows.count();
  expect(await seen(table.locator('thead'))).toBe(false);
  expect(await rows.first().getByText(screen.label, { exact: true }).isVisible()).toBe(true);
  expect(await pageScrollsSideways(page)).toBe(false);
  const actions = await everyActionReachable(page, rows, rowCount);
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, `${prefix}-${screen.name}-cards-375`, false);
  return { rows: rowCount, actions };
}

/**
 * At 1280 px the same screen is a table with its headers, and the card labels are hidden (the accessibility spec
 * keeps its full-page screenshot).
 */
async function checkDesktop(page: Page, screen: Screen): Promise<void> {
  const table = await openScreen(page, screen);
  expect(await seen(table.locator('thead'))).toBe(true);
  expect(await table.locator('tbody tr').first().getByText(screen.label, { exact: true }).isVisible()).toBe(
    false,
  );
  expect(await pageScrollsSideways(page)).toBe(false);
}

describe('tables and the menu on a phone', () => {
  let browser: Browser;
  // One admin session for both widths: every sign-in counts against the sign-in rate limit.
  let admin: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    admin = await openPage(browser, PHONE.width, PHONE.height);
    await signInAsAdmin(admin);
  });

  afterAll(async () => {
    await browser.close();
  });

  it('shows the admin tables as cards at 375 px, with every row action reachable', async () => {
    const page = admin;
    const checked = new Map<string, { rows: number; actions: number }>();
    for (const screen of adminScreens)
      checked.set(screen.name, await checkPhone(page, screen, 'phones-admin'));
    const [rates, users, emails, plans] = ['rates', 'users', 'emails', 'plans'].map((name) =>
      checked.get(name)!,
    );
    // Every row of the screens with row actions had them all reachable: Edit and Delete of a rate; Disable
    // (and, for a developer, the super customer switch) of an account; Remove of an e-mail; a plan's
    // features, its sale switch (Put on sale or Take off sale), Edit and Delete.
    expect(rates!.actions).toBe(2 * rates!.rows);
    expect(users!.actions).toBeGreaterThanOrEqual(users!.rows);
    expect(emails!.actions).toBe(emails!.rows);
    expect(plans!.actions).toBe(4 * plans!.rows);

    // The actions do what they say from a card: Edit opens the rate form, Remove asks first.
    await page.goto('/admin/rates');
    await tableLoaded(page, 'Rates is empty.');
    await page
      .getByRole('button', { name: /^Edit / })
      .first()
      .click();
    const form = page.getByRole('dialog', { name: 'Edit rate' });
    await form.waitFor();
    await form.getByRole('button', { name: 'Cancel' }).click();
    await form.waitFor({ state: 'detached' });

    await page.goto('/admin/emails');
    await tableLoaded(page, 'Mailing list is empty.');
    await page
      .getByRole('button', { name: /^Remove / })
      .first()
      .click();
    const confirm = page.getByRole('dialog', { name: 'Remove this e-mail?' });
    await confirm.waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
  });

  it('keeps the admin tables as tables at 1280 px', async () => {
    const page = admin;
    await page.setViewportSize(DESKTOP);
    for (const screen of adminScreens) await checkDesktop(page, screen);

    // Nine columns fit beside the sidebar at 1280 px, but not on a small tablet, where the table is still a
    // table: it says so and scrolls from the keyboard.
    await page.setViewportSize({ width: 700, height: 900 });
    await page.goto('/admin/transactions');
    await tableLoaded(page, 'Transaction is empty.');
    const region = page.getByRole('region', { name: 'Transactions' });
    expect(await region.getAttribute('tabindex')).toBe('0');
    expect(await page.getByText('Scroll sideways for more columns').isVisible()).toBe(true);
    await region.focus();
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(
      () => (document.querySelector('[role="region"][aria-label="Transactions"]')?.scrollLeft ?? 0) > 0,
    );
  });

  it.each([PHONE, DESKTOP])(
    "shows the demo app's request log and transactions at $width px",
    async ({ width, height }) => {
      const page = await openPage(browser, width, height);
      await signInAsDeveloper(page);
      await pickApp(page, DEMO_APP);
      for (const screen of developerScreens) {
        if (width === PHONE.width) await checkPhone(page, screen, 'phones-developer');
        else await checkDesktop(page, screen);
      }
      await page.context().close();
    },
  );

  it('closes the public menu on a tap outside it, on Escape and on following a link', async () => {
    const context = await browser.newContext({
      viewport: PHONE,
      baseURL: BASE_URL,
      hasTouch: true,
      isMobile: true,
    });
    const page = await context.newPage();
    await page.goto('/api');
    // /api arrives drawn by the server: its Menu button answers once the app's code has arrived and taken the
    // page over, which a busy machine can leave until after the first tap.
    await page.waitForLoadState('networkidle');
    const menuButton = page.getByRole('button', { name: 'Menu' });
    const menu = page.locator('#mobile-menu');

    await menuButton.tap();
    await menu.waitFor();
    await screenshot(page, 'phones-public-menu-375', false);
    await page.getByRole('heading', { level: 1 }).tap();
    await menu.waitFor({ state: 'detached' });
    expect(await menuButton.getAttribute('aria-expanded')).toBe('false');

    await menuButton.tap();
    await menu.waitFor();
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });

    await menuButton.tap();
    await menu.getByRole('link', { name: 'Home' }).tap();
    await page.waitForURL(`${BASE_URL}/`);
    await menu.waitFor({ state: 'detached' });
    expect(await pageScrollsSideways(page)).toBe(false);
    await context.close();
  });
});

describe('the password reset request on a phone', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser.close();
  });

  it('shows "Check your inbox" with a full-height "Go to sign in" and no stale sign-in refusal', async () => {
    const page = await openPage(browser, PHONE.width, PHONE.height);
    await page.goto('/developer/signin');
    await page.getByLabel('E-mail address').fill('nobody-phone@example.com');
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const refusal = page
      .locator('[role="status"][data-tone="error"]')
      .filter({ hasText: 'Invalid email or password.' });
    await refusal.waitFor();

    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByLabel('E-mail address').fill('nobody-phone@example.com');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByRole('heading', { name: 'Check your inbox' }).waitFor();

    expect(await refusal.count()).toBe(0);
    // It was squashed to 24 px; a tap target is at least 44 px high.
    const box = await page.getByRole('link', { name: 'Go to sign in' }).boundingBox();
    expect(box?.height).toBeGreaterThanOrEqual(44);
    await page.context().close();
  });
});

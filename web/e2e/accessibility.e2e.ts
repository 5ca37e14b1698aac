import type { Browser, Page } from 'playwright-core';
import {
  DESKTOP,
  PHONE,
  DEMO_APP,
  launchBrowser,
  openPage,
  pickApp,
  screenshot,
  seriousAccessibilityFindings,
  signInAsAdmin,
  signInAsDeveloper,
  throttleRefusal,
  waitOutThrottle,
} from './browser';

/** The test visits 33 screens twice each and runs axe on each, on a machine that is also serving them. */
const SPEC_TIMEOUT_MS = 480_000;

interface Screen {
  /** The artifact name: e2e-artifacts/a11y-<name>-<width>.png. */
  name: string;
  path: string;
  /** Text the screen must show once loaded: the check fails on a screen that rendered something else. */
  shows?: string | RegExp;
}

/**
 * Waits until the page has settled: no request in flight, no table or panel still busy, no loading spinner.
 * Axe on a half-loaded page would check the skeleton, not the screen a user reads.
 */
async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.locator('h1, h2').first().waitFor();
  await page.locator('[aria-busy="true"], [aria-busy=""]').first().waitFor({ state: 'detached' });
  await page
    .getByRole('status')
    .filter({ hasText: /^Loading/ })
    .first()
    .waitFor({ state: 'detached' });
  // A table wider than its box becomes a region the keyboard can scroll once it has measured itself (Table.tsx), a
  // frame after its rows or its width change. Axe reads the page in steps and would judge it in between; a table that
  // never agrees with its width fails here, by its caption.
  await page
    .waitForFunction(() =>
      [...document.querySelectorAll('table')].every((table) => {
        const box = table.parentElement!;
        if (!/auto|scroll/.test(getComputedStyle(box).overflowX)) return true;
        return box.scrollWidth > box.clientWidth + 1 === (box.getAttribute('role') === 'region');
      }),
    )
    .catch(async () => {
      const captions = await page.locator('table caption').allTextContents();
      throw new Error(
        `a table's keyboard scrolling disagrees with its width (tables: ${captions.join(', ')})`,
      );
    });
}

/**
 * Opens a screen and waits until it shows what it must. A link screen (activation, password reset) shares the
 * link limit with every spec that ran on this server in the last minute: a refusal is waited out and the screen
 * opened again, so the check reads the screen itself.
 */
async function visit(page: Page, path: string, shows: Screen['shows']): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await page.goto(path);
    await settled(page);
    if (!shows) return;
    const refusal = throttleRefusal(page);
    await page.getByText(shows).filter({ visible: true }).first().or(refusal).first().waitFor();
    if (!(await refusal.isVisible())) return;
    if (attempt === 3) throw new Error(`${path} was refused by a limit three times`);
    await waitOutThrottle(page, refusal);
  }
}

/** Visits every screen at both widths, saving a screenshot of each; answers the serious and critical findings. */
async function checkScreens(page: Page, screens: Screen[]): Promise<string[]> {
  const findings: string[] = [];
  for (const { name, path, shows } of screens) {
    for (const size of [DESKTOP, PHONE]) {
      await page.setViewportSize(size);
      await visit(page, path, shows);
      await screenshot(page, `a11y-${name}-${size.width}`);
      for (const finding of await seriousAccessibilityFindings(page))
        findings.push(`${path} at ${size.width} px: ${finding}`);
    }
  }
  return findings;
}

function expectNoFindings(findings: string[]): void {
  if (findings.length > 0) throw new Error(`axe found serious or critical problems:\n${findings.join('\n')}`);
}

/** A group of screens seen by one visitor: a page of its own, signed in as the group needs. */
interface ScreenGroup {
  title: string;
  signIn?: (page: Page) => Promise<void>;
  screens: Screen[];
}

const GROUPS: ScreenGroup[] = [
  {
    title: 'the public site and the API documentation',
    screens: [
      { name: 'home', path: '/' },
      { name: 'api', path: '/api', shows: /\/ year|Plans is empty\./ },
      { name: 'rate-calculator', path: '/rate_calculator', shows: /Rate used|There is no NGN rate/ },
      { name: 'rate-history', path: '/rate_history' },
      { name: 'status', path: '/status' },
      { name: 'privacy', path: '/company/privacy', shows: 'What we collect' },
      { name: 'terms', path: '/company/terms_of_use' },
      { name: 'confirmation-bad-link', path: '/confirmation/not-a-real-link' },
      { name: 'unsubscribe-bad-link', path: '/unsubscribe/not-a-real-token' },
      { name: 'not-found', path: '/no/such/page', shows: 'This page does not exist.' },
      { name: 'docs', path: '/docs', shows: '/v1/currencies' },
    ],
  },
  {
    title: 'the developer portal, signed in as the demo developer',
    signIn: async (page) => {
      await signInAsDeveloper(page);
      await pickApp(page, DEMO_APP);
    },
    screens: [
      { name: 'developer-apps', path: '/developer/apps' },
      { name: 'developer-home', path: '/developer/home', shows: 'Requests this month' },
      { name: 'developer-api-keys', path: '/developer/api', shows: 'Public key' },
      { name: 'developer-request', path: '/developer/request' },
      { name: 'developer-plans', path: '/developer/plans' },
      { name: 'developer-webhooks', path: '/developer/webhooks' },
      { name: 'developer-change-password', path: '/developer/change_password' },
      { name: 'developer-not-found', path: '/developer/no-such-screen' },
    ],
  },
  {
    title: 'the developer portal, signed out',
    screens: [
      { name: 'developer-signin', path: '/developer/signin', shows: 'Sign in to AfroFX' },
      { name: 'developer-signup', path: '/developer/signup' },
      {
        name: 'developer-request-reset',
        path: '/developer/request_password_reset',
        shows: 'Reset your password',
      },
      {
        name: 'developer-reset-bad-link',
        path: '/developer/reset_password/not-a-real-code',
        shows: 'Choose a new password',
      },
      {
        name: 'developer-activate-bad-link',
        path: '/developer/activate_account/not-a-real-account',
        shows: 'This activation link is invalid or has expired.',
      },
      { name: 'admin-login', path: '/admin/login', shows: 'Admin sign in' },
    ],
  },
  {
    title: 'the admin console, signed in as the demo admin',
    signIn: signInAsAdmin,
    screens: [
      { name: 'admin-emails', path: '/admin/emails' },
      { name: 'admin-users', path: '/admin/users' },
      { name: 'admin-rates', path: '/admin/rates' },
      { name: 'admin-api-wait-list', path: '/admin/api_wait_list' },
      { name: 'admin-plans', path: '/admin/plans' },
      { name: 'admin-apps', path: '/admin/apps' },
      { name: 'admin-transactions', path: '/admin/transactions' },
      { name: 'admin-subscriptions', path: '/admin/subscriptions' },
    ],
  },
];

describe('accessibility of every page at 1280 and 375 px', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser.close();
  });

  it(
    'finds no serious or critical problem on any screen of the site, portal and console',
    async () => {
      // The groups run side by side, each on a page of its own: one page at a time left a core idle while the
      // browser waited on the network.
      const findings = await Promise.all(
        GROUPS.map(async (group) => {
          const page = await openPage(browser, DESKTOP.width, DESKTOP.height);
          try {
            await group.signIn?.(page);
            return (await checkScreens(page, group.screens)).map((finding) => `${group.title}: ${finding}`);
          } finally {
            await page.context().close();
          }
        }),
      );
      expectNoFindings(findings.flat());
    },
    SPEC_TIMEOUT_MS,
  );
});

// The Webhooks screen against a receiver on this machine (the e2e server runs the embedded demo, where
// WEBHOOK_ALLOW_PRIVATE_TARGETS is on): add an endpoint, copy its secret, send a test event that arrives signed,
// read the delivery log, rotate the secret and delete the endpoint, each behind its confirmation; and an endpoint
// parked after failures in a row, shown as paused and resumed.
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import {
  ADMIN,
  BASE_URL,
  appOnPlan,
  DEVELOPER,
  developerSession,
  launchBrowser,
  openAsDeveloper,
  pickApp,
  screenshot,
  tableLoaded,
  WIDTHS,
} from './browser';

const HOOKS_APP = 'Webhooks App';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

function signed(received: Received, secret: string): boolean {
  const header = String(received.headers['afrofx-signature'] ?? '');
  const parts = Object.fromEntries(header.split(',').map((kv) => kv.split('=') as [string, string]));
  return createHmac('sha256', secret).update(`${parts.t}.${received.body}`).digest('hex') === parts.v1;
}

/** An admin enters a naira/dollar cash rate through the API, as the Rates screen would. */
async function enterCashDollarRate(sell: number): Promise<void> {
  const signin = await fetch(`${BASE_URL}/v1/admin/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  const { data } = (await signin.json()) as { data: { token: string } };
  const created = await fetch(`${BASE_URL}/v1/admin/create_rate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${data.token}` },
    body: JSON.stringify({
      market: 'black_market_cash',
      base: 'naira',
      asset: 'dollar',
      buy: sell - 20,
      sell,
    }),
  });
  expect(created.status).toBe(201);
}

describe('the Webhooks screen', () => {
  let browser: Browser;
  let session: string;
  let receiver: Server;
  let receiverUrl: string;
  const received: Received[] = [];
  /** While set, the receiver answers 500 on /failing. */
  let failing = true;

  beforeAll(async () => {
    browser = await launchBrowser();
    // Webhooks are opened by the Business plan: an app of the demo developer on it (a new account would
    // spend one more of the loopback client's sign-ups and activation links, which every spec on this server shares).
    session = await developerSession(DEVELOPER.email, DEVELOPER.password);
    await appOnPlan(session, HOOKS_APP, 'Business');
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (failing && req.url === '/failing') return void res.writeHead(500).end('down');
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/afrofx-hooks`;
  });

  afterAll(async () => {
    await browser.close();
    await new Promise((resolve) => receiver.close(resolve));
  });

  describe.each(WIDTHS)('at $width px', ({ width, height }) => {
    const shot = (page: Page, name: string) => screenshot(page, `developer-webhooks-${name}-${width}`);

    it('adds an endpoint, sends it a signed test event, rotates its secret and deletes it', async () => {
      const page = await openAsDeveloper(browser, session, '/developer/apps', width, height);
      await pickApp(page, HOOKS_APP);
      await page.goto('/developer/webhooks');
      await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
      await page.getByText('No webhook endpoints yet.').waitFor();
      await shot(page, 'empty');

      await page.getByRole('button', { name: 'Add endpoint' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add a webhook endpoint' });
      await dialog.getByRole('checkbox', { name: /rate\.threshold/ }).check();
      await dialog.getByRole('button', { name: 'Create endpoint' }).click();
      await dialog.getByText('Endpoint URL is required.').waitFor();
      await dialog.getByText('Add at least one threshold for rate.threshold.').waitFor();
      await shot(page, 'form-errors');

      await dialog.getByLabel('Endpoint URL').fill(receiverUrl);
      await dialog.getByRole('checkbox', { name: 'Cash' }).check();
      const pairs = dialog.getByRole('group', { name: 'Pairs' });
      await pairs.getByLabel('Asset').selectOption('dollar');
      await pairs.getByLabel('Base currency').selectOption('naira');
      await pairs.getByRole('button', { name: 'Add pair' }).click();
      await pairs.getByRole('list', { name: 'Chosen pairs' }).getByText('USD/NGN').waitFor();
      const thresholds = dialog.getByRole('group', { name: 'Thresholds' });
      await thresholds.getByLabel('Market').selectOption('black_market_cash');
      await thresholds.getByLabel('Asset').selectOption('dollar');
      await thresholds.getByLabel('Base currency').selectOption('naira');
      await thresholds.getByLabel('Side').selectOption('sell');
      await thresholds.getByRole('button', { name: 'Add threshold' }).click();
      await thresholds.getByText('The level must be a number above 0.').waitFor();
      await thresholds.getByLabel('Level').fill('5000');
      await thresholds.getByRole('button', { name: 'Add threshold' }).click();
      await dialog
        .getByRole('list', { name: 'Chosen thresholds' })
        .getByText('USD/NGN Cash sell 5000')
        .waitFor();
      await shot(page, 'form');
      await dialog.getByRole('button', { name: 'Create endpoint' }).click();

      await page.getByRole('heading', { name: 'Copy the signing secret now' }).waitFor();
      const secret = (await page.getByTestId('key-signing-secret').textContent()) ?? '';
      expect(secret).toMatch(/^afxsig_[A-Za-z0-9_-]{32}$/);
      const endpoint = page.getByTestId('webhook-endpoint');
      await endpoint.getByText(receiverUrl).waitFor();
      await endpoint.getByText(/^Price now (above|below) the level$/).waitFor();
      await shot(page, 'created');
      await page.getByRole('button', { name: 'I’ve saved it' }).click();
      await page.getByRole('heading', { name: 'Copy the signing secret now' }).waitFor({ state: 'detached' });
      expect(await page.getByText(secret).count()).toBe(0);

      const before = received.length;
      await endpoint.getByRole('button', { name: 'Send test event' }).click();
      await page.getByRole('heading', { name: 'Delivery log' }).waitFor();
      await tableLoaded(page, 'No deliveries yet.');
      await page.getByRole('row').filter({ hasText: 'webhook.test' }).getByText('Delivered').waitFor();
      expect(received.length).toBe(before + 1);
      const test = received.at(-1)!;
      expect(JSON.parse(test.body)).toMatchObject({ type: 'webhook.test' });
      expect(signed(test, secret)).toBe(true);
      await shot(page, 'log');

      // A rate that crosses the level (up from the demo rates, down from the last run's) reaches the receiver
      // signed, as rate.threshold and as rate.updated (the endpoint watches cash USD/NGN).
      const below = (await endpoint.getByText('Price now below the level').count()) > 0;
      const mark = received.length;
      await enterCashDollarRate(below ? 5100 : 4900);
      const log = page.getByRole('table');
      await log.getByRole('row').filter({ hasText: 'rate.threshold' }).getByText('Delivered').waitFor();
      await log.getByRole('row').filter({ hasText: 'rate.updated' }).getByText('Delivered').waitFor();
      const crossing = received.slice(mark).find((r) => JSON.parse(r.body).type === 'rate.threshold');
      expect(JSON.parse(crossing!.body).data.threshold).toMatchObject({ direction: below ? 'up' : 'down' });
      expect(signed(crossing!, secret)).toBe(true);
      await shot(page, 'log-crossing');

      await endpoint.getByRole('button', { name: 'Rotate secret' }).click();
      await page.getByRole('dialog', { name: 'Rotate the signing secret?' }).waitFor();
      await shot(page, 'rotate-confirm');
      await page.getByRole('button', { name: 'Rotate secret' }).last().click();
      await page.getByRole('heading', { name: 'Copy the signing secret now' }).waitFor();
      const rotated = (await page.getByTestId('key-signing-secret').textContent()) ?? '';
      expect(rotated).toMatch(/^afxsig_/);
      expect(rotated).not.toBe(secret);

      await endpoint.getByRole('button', { name: 'Delete' }).click();
      const confirm = page.getByRole('dialog', { name: 'Delete this endpoint?' });
      await confirm.getByText(receiverUrl).waitFor();
      await shot(page, 'delete-confirm');
      await confirm.getByRole('button', { name: 'Delete endpoint' }).click();
      await page.getByText('No webhook endpoints yet.').waitFor();
      expect(await page.getByTestId('webhook-endpoint').count()).toBe(0);
      await page.context().close();
    });

    it('shows an endpoint parked after 5 failed deliveries in a row, and resumes it', async () => {
      const { token } = JSON.parse(session) as { token: string };
      const api = async (path: string, method = 'GET', body?: object) => {
        const response = await fetch(`${BASE_URL}/v1/${path}`, {
          method,
          headers: {
            authorization: `Bearer ${token}`,
            ...(body ? { 'content-type': 'application/json' } : {}),
          },
          body: body && JSON.stringify(body),
        });
        expect(response.status).toBeLessThan(300);
        return ((await response.json()) as { data: unknown }).data;
      };
      const apps = (await api('apps/all_apps')) as Array<{ _id: string; name: string }>;
      const appId = apps.find((a) => a.name === HOOKS_APP)!._id;
      failing = true;
      const failingUrl = receiverUrl.replace('/afrofx-hooks', '/failing');
      const { _id: endpointId } = (await api(`account/webhooks/${appId}`, 'POST', {
        url: failingUrl,
        events: ['rate.updated'],
        markets: ['bank'],
      })) as { _id: string };
      let page: Page | undefined;
      try {
        for (let i = 0; i < 5; i++) await api(`account/webhooks/${appId}/${endpointId}/test`, 'POST');
        for (;;) {
          const endpoints = (await api(`account/webhooks/${appId}`)) as Array<{ _id: string; state: string }>;
          if (endpoints.find((e) => e._id === endpointId)?.state === 'parked') break;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }

        page = await openAsDeveloper(browser, session, '/developer/apps', width, height);
        await pickApp(page, HOOKS_APP);
        await page.goto('/developer/webhooks');
        const endpoint = page.getByTestId('webhook-endpoint').filter({ hasText: failingUrl });
        await endpoint.getByText('Deliveries to this endpoint are paused').waitFor();
        await endpoint.getByText(/5 attempts in a row failed; the last: The endpoint answered 500/).waitFor();
        await endpoint.getByRole('button', { name: 'Delivery log' }).click();
        await tableLoaded(page, 'No deliveries yet.');
        expect(await page.getByRole('table').getByText('Kept (paused)').count()).toBe(5);
        await shot(page, 'parked');

        failing = false;
        const before = received.length;
        await endpoint.getByRole('button', { name: 'Resume deliveries' }).click();
        await endpoint.getByText('Deliveries to this endpoint are paused').waitFor({ state: 'detached' });
        await page.getByRole('table').getByText('Delivered').nth(4).waitFor();
        expect(received.length - before).toBe(5);
        await shot(page, 'resumed');
      } finally {
        // The first test of the next width starts with no endpoints.
        await api(`account/webhooks/${appId}/${endpointId}`, 'DELETE');
        await page?.context().close();
      }
    });
  });
});

// The site promises only what runs: with no TELEGRAM_BOT_TOKEN no page links to a Telegram bot, server-rendered
// HTML included; with the bot on, the home page's card, the navigation and the footer link to it.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFakeTelegram, type FakeTelegram } from './support/fake-telegram';
import { createTestApp, webRenderer, type TestApp } from './support/test-app';

const INDEX_HTML = `<!doctype html><html lang="en"><head><meta charset="UTF-8" />
<title>AfroFX</title></head><body><div id="root"></div></body></html>`;
const PAGES = ['/', '/rate_calculator', '/rate_history'];

let webDist: string;
beforeAll(async () => {
  webDist = await mkdtemp(path.join(tmpdir(), 'afrofx-web-dist-'));
  await writeFile(path.join(webDist, 'index.html'), INDEX_HTML);
  await mkdir(path.join(webDist, 'assets'));
});
afterAll(() => rm(webDist, { recursive: true, force: true }));

async function pages(t: TestApp) {
  return Promise.all(
    PAGES.map(async (url) => {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      return res.body;
    }),
  );
}

describe('Telegram links on the site', () => {
  it('shows none anywhere when the bot is off', async () => {
    const t = await createTestApp({ WEB_DIST: webDist }, { renderPage: await webRenderer() });
    try {
      const contact = await t.app.inject({ method: 'GET', url: '/v1/user/site_contact' });
      expect(contact.json().data.telegramBot).toBeNull();
      for (const html of await pages(t)) {
        expect(html).toContain('Twitter bot');
        expect(html).not.toContain('t.me/');
        // What the page shows, without the seed data it hydrates from (which says telegramBot: null).
        const shown = html.replace(/<script type="application\/json"[\s\S]*?<\/script>/, '');
        expect(/.{0,80}telegram.{0,80}/i.exec(shown)?.[0]).toBeUndefined();
      }
    } finally {
      await t.close();
    }
  });

  it('links to the bot in the navigation, the footer and the home page card when it runs', async () => {
    const telegram: FakeTelegram = await startFakeTelegram('1:visible');
    const t = await createTestApp(
      {
        WEB_DIST: webDist,
        TELEGRAM_BOT_TOKEN: '1:visible',
        TELEGRAM_API_ROOT: telegram.apiRoot,
        TELEGRAM_BOT_USERNAME: 'afrofx_rates_bot',
      },
      { renderPage: await webRenderer() },
    );
    try {
      const contact = await t.app.inject({ method: 'GET', url: '/v1/user/site_contact' });
      expect(contact.json().data.telegramBot).toBe('https://t.me/afrofx_rates_bot');
      const [home] = await pages(t);
      expect(home!.match(/href="https:\/\/t\.me\/afrofx_rates_bot"/g)!.length).toBeGreaterThanOrEqual(3);
      expect(home).toContain('Open in Telegram');
    } finally {
      await t.close();
      await telegram.close();
    }
  });
});

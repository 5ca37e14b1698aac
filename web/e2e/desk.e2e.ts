// The rate desk as a new admin uses it on a morning: the whole board published in one go, 40 pairs as they were and
// 8 pasted from a spreadsheet, by keyboard, in a handful of actions; and axe finds nothing serious on the desk.
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openPage, seriousAccessibilityFindings, signInAsAdmin } from './browser';

interface BoardRow {
  market: string;
  base: string;
  asset: string;
  last: { buy: number; sell: number } | null;
}

const adminGet = async <T>(page: Page, path: string): Promise<T> =>
  page.evaluate(async (url) => {
    const res = await fetch(url, { headers: { 'X-Requested-With': 'fetch' } });
    return (await res.json()).data;
  }, path) as Promise<T>;

describe('the rate desk', () => {
  let browser: Browser;
  let admin: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    admin = await openPage(browser);
    await signInAsAdmin(admin);
  });

  afterAll(async () => {
    await browser.close();
  });

  it('is first in the sidebar, and axe finds nothing serious on it', async () => {
    const nav = admin.getByRole('navigation').first();
    expect((await nav.getByRole('link').first().textContent())?.trim()).toBe('Desk');
    await admin.goto('/admin/desk');
    await admin.getByLabel('Paste from a spreadsheet').waitFor();
    expect(await seriousAccessibilityFindings(admin)).toEqual([]);
  });

  it('publishes all 48 pairs, 8 pasted and 40 unchanged, by keyboard in under 30 actions', async () => {
    await admin.goto('/admin/desk');
    const paste = admin.getByLabel('Paste from a spreadsheet');
    await paste.waitFor();
    const board = await adminGet<{ rows: BoardRow[] }>(admin, '/v1/admin/desk');
    expect(board.rows).toHaveLength(48);
    expect(board.rows.every((row) => row.last)).toBe(true);
    // Eight new figures, 1% up: a spreadsheet copy is tab-separated, with its header row.
    const changed = board.rows.slice(0, 8).map((row) => ({
      ...row,
      buy: Number((row.last!.buy * 1.01).toFixed(2)),
      sell: Number((row.last!.sell * 1.01).toFixed(2)),
    }));
    const block = [
      'market\tbase\tasset\tbuy\tsell',
      ...changed.map((r) => [r.market, r.base, r.asset, r.buy, r.sell].join('\t')),
    ].join('\n');

    const started = Date.now();
    let actions = 0;
    await paste.click();
    actions++;
    await admin.keyboard.insertText(block); // one paste
    actions++;
    await admin.keyboard.press('Tab'); // to "Same as last: whole board"
    actions++;
    await admin.keyboard.press('Enter');
    actions++;
    const publish = admin.getByRole('button', { name: 'Publish 48 rates' });
    await publish.waitFor();
    await admin
      .getByText('48 of 48 rows ready')
      .or(admin.getByText(/row\(s\) need attention/))
      .waitFor();
    // Other specs on this server publish far-off figures (a rate alert's crossings): a row whose last figure is
    // that far from its official reference asks to be confirmed before the whole board goes out again.
    const flagged = await admin.getByRole('checkbox', { name: 'Confirm row' }).all();
    for (const confirm of flagged) {
      await confirm.check();
      actions++;
    }
    if (flagged.length > 0) await publish.focus();
    else {
      await admin.keyboard.press('Tab'); // to Publish
      actions++;
    }
    await admin.keyboard.press('Enter');
    actions++;
    await admin.getByText('48 rates published.').waitFor();
    expect(actions).toBeLessThan(30);
    console.log(`The desk published 48 pairs in ${actions} actions and ${Date.now() - started} ms.`);

    // One publication: 48 records with one timestamp and one publication id, 8 of them the pasted figures.
    const latest = await adminGet<
      Array<
        { publicationId: string; createdAt: string; source: string } & BoardRow & {
            buy: number;
            sell: number;
          }
      >
    >(admin, '/v1/admin/fetch_all_rates?page=1');
    const publicationId = latest[0]!.publicationId;
    const all: typeof latest = [];
    for (let page = 1; all.length < 48; page++)
      all.push(...(await adminGet<typeof latest>(admin, `/v1/admin/fetch_all_rates?page=${page}`)));
    const published = all.slice(0, 48);
    expect(new Set(published.map((r) => r.publicationId))).toEqual(new Set([publicationId]));
    expect(new Set(published.map((r) => r.createdAt)).size).toBe(1);
    expect(published.every((r) => r.source === 'desk')).toBe(true);
    for (const row of changed) {
      const stored = published.find(
        (r) => r.market === row.market && r.base === row.base && r.asset === row.asset,
      );
      expect(stored).toMatchObject({ buy: row.buy, sell: row.sell });
    }
    const unchanged = board.rows.slice(8);
    for (const row of unchanged) {
      const stored = published.find(
        (r) => r.market === row.market && r.base === row.base && r.asset === row.asset,
      );
      expect(stored).toMatchObject({ buy: row.last!.buy, sell: row.last!.sell });
    }
  });
});

import {
  BASE_DISPLAY,
  convertFunds,
  formatNumber,
  MARKET_TABS,
  type Base,
  type Market,
  type Rate,
} from '@afrofx/shared';
import type { Browser } from 'playwright-core';
import { appHasTakenOver, fieldShows, launchBrowser, openPage, siteRates } from './browser';

async function rateOf(market: Market, asset: string, base: Base = 'naira'): Promise<Rate> {
  const rate = (await siteRates(market)).find((entry) => entry.base === base && entry.asset === asset);
  if (!rate) throw new Error(`no ${base}/${asset} rate in the ${market} market`);
  return rate;
}
const nairaRate = (market: Market, asset: string) => rateOf(market, asset);

describe('rate calculator', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser.close();
  });

  it('converts both ways on the chosen market, asset and side', async () => {
    const page = await openPage(browser);
    // A rate entered by the spec before this one reaches the served page within moments (2 s at most): the
    // page is loaded again until it shows the rate the API answers.
    let cash = await nairaRate('black_market_cash', 'dollar');
    for (let attempt = 0; ; attempt++) {
      await page.goto('/rate_calculator');
      await page.getByText('Rate used').waitFor();
      const shown = await page.getByText('Rate used').locator('..').textContent();
      if (shown?.includes(`₦${formatNumber(cash.buy)}`) || attempt === 10) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
      cash = await nairaRate('black_market_cash', 'dollar');
    }
    // The page may not be the app's yet: what is typed now is answered for once it is.
    await page.getByLabel('USD amount').fill('200');
    await fieldShows(page.getByLabel('NGN balance'), String(convertFunds(200, cash.buy)));
    expect(await page.getByText('Rate used').locator('..').textContent()).toContain(
      `₦${formatNumber(cash.buy)}`,
    );

    // An explicit side overrides the rule (foreign currency into the base: buy).
    await page.getByText('Sell rate', { exact: true }).click();
    await fieldShows(page.getByLabel('NGN balance'), String(convertFunds(200, cash.sell)));
    await page.getByText('By direction').click();

    await page.getByRole('tab', { name: 'Bank' }).click();
    await page.getByLabel('Currency', { exact: true }).selectOption('british_pounds');
    const bank = await nairaRate('bank', 'british_pounds');
    await page.getByLabel('NGN balance').fill(String(Math.round(bank.sell * 10)));
    await fieldShows(page.getByLabel('GBP amount'), '10.00');
  });

  it('answers for an amount typed before the app has taken the page over', async () => {
    const page = await openPage(browser);
    // The app's code is held back until the amount is typed into the page the server drew.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/*.js', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/rate_calculator', { waitUntil: 'commit' });
    const used = page.getByTestId('rate-used');
    await used.waitFor();
    // "₦1,508.47 per 1 USD": the figure the page was drawn with.
    const rate = Number(/[\d,.]+/.exec((await used.textContent()) ?? '')![0].replaceAll(',', ''));
    await page.getByLabel('USD amount').fill('200');
    expect(await page.getByLabel('NGN balance').inputValue()).toBe(String(convertFunds(100, rate)));

    release();
    await appHasTakenOver(page);
    await fieldShows(page.getByLabel('NGN balance'), String(convertFunds(200, rate)));
    expect(await page.getByLabel('USD amount').inputValue()).toBe('200');
  });

  it('converts 100 USD to KES, ZAR and GHS in each market at the figure the API answers, with the side explained', async () => {
    const page = await openPage(browser);
    await page.goto('/rate_calculator');
    await appHasTakenOver(page);
    for (const { label, market } of MARKET_TABS) {
      for (const base of ['kenyan-shilling', 'rand', 'cedis'] as const) {
        const { code } = BASE_DISPLAY[base];
        // The page reads the rates when it loads; a spec on the same server may publish new ones meanwhile (the
        // desk publishes all 48 pairs): the page is loaded again until it shows the rate the API answers.
        let rate = await rateOf(market, 'dollar', base);
        for (let attempt = 0; ; attempt++) {
          await page.getByRole('tab', { name: label }).click();
          await page.getByLabel('Base currency').selectOption(base);
          await page.getByLabel('USD amount').fill('100');
          const shown = await page.getByLabel(`${code} balance`).inputValue();
          if (shown === String(convertFunds(100, rate.buy)) || attempt === 10) break;
          await page.goto('/rate_calculator');
          await appHasTakenOver(page);
          rate = await rateOf(market, 'dollar', base);
        }
        expect(await page.getByLabel(`${code} balance`).inputValue()).toBe(
          String(convertFunds(100, rate.buy)),
        );
        expect(await page.getByTestId('rate-used').textContent()).toContain(formatNumber(rate.buy));
        expect(await page.getByTestId('side-explained').textContent()).toContain(
          `Converting USD into ${code} uses the buy price`,
        );
      }
    }
  });
});

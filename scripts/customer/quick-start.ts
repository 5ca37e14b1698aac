// A customer's script, written only from the README's quick start and @afrofx/sdk: every paid call, with the
// SDK's types. AFROFX_URL is the API's address, AFROFX_KEY the private key from the portal's API Keys screen.
// Exits 1 on the first call that fails.
import { createAfroFxClient } from '@afrofx/sdk';

const afrofx = createAfroFxClient({ baseUrl: process.env.AFROFX_URL!, apiKey: process.env.AFROFX_KEY! });

function check<T>(name: string, result: { data?: T; error?: unknown; response: Response }): T {
  if (result.error !== undefined || result.data === undefined)
    throw new Error(`${name}: ${result.response.status} ${JSON.stringify(result.error)}`);
  console.log(
    `${name}: ${result.response.status}, ${result.response.headers.get('RateLimit-Remaining') ?? '∞'} left`,
  );
  return result.data;
}

async function main() {
  const currencies = check('currencies', await afrofx.GET('/v1/currencies')).data;
  const codes = currencies.assets.map((asset) => asset.code).join(', ');
  console.log(`  assets: ${codes}; bases: ${currencies.bases.map((base) => base.code).join(', ')}`);

  const latest = check(
    'latest rates',
    await afrofx.GET('/v1/rates', { params: { query: { base: 'NGN', symbols: 'USD,GBP' } } }),
  ).data;
  for (const quote of latest)
    console.log(`  ${quote.market} ${quote.asset}: mid ${quote.mid}, change ${quote.change}`);

  const today = new Date().toISOString().slice(0, 10);
  check('rates on a day', await afrofx.GET('/v1/rates', { params: { query: { base: 'NGN', date: today } } }));
  const pair = { market: 'bank', base: 'NGN', asset: 'USD' } as const;
  const history = check('history', await afrofx.GET('/v1/rates/history', { params: { query: pair } }));
  if (typeof history === 'string') throw new Error('history: expected JSON');
  console.log(`  ${history.data.points.length} days`);
  const candles = check(
    'candles',
    await afrofx.GET('/v1/rates/ohlc', { params: { query: { ...pair, interval: 'week' } } }),
  );
  if (typeof candles === 'string') throw new Error('candles: expected JSON');
  console.log(`  ${candles.data.candles.length} weeks`);
  const premium = check(
    'premium',
    await afrofx.GET('/v1/rates/premium', { params: { query: { base: 'NGN', asset: 'USD' } } }),
  );
  console.log(`  ${premium.data.markets.map((m) => `${m.market} now ${m.now?.mid ?? '-'} %`).join('; ')}`);
  const converted = check(
    'convert',
    await afrofx.GET('/v1/convert', {
      params: { query: { amount: 100, from: 'USD', to: 'NGN', market: 'bank' } },
    }),
  );
  console.log(`  100 USD = ${converted.data.result} NGN`);
  const usage = check('usage', await afrofx.GET('/v1/usage')).data;
  console.log(`  used ${usage.used} of ${usage.limit ?? 'unlimited'}`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});

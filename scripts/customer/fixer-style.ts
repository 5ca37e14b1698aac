// A Fixer customer's script: Fixer's documented examples (https://fixer.io/documentation) with only the base URL and
// the access_key changed (and currencies AfroFX carries). Then, as CI, each figure is checked against AfroFX's own
// /v1/rates: our mid, or 1 / our mid. AFROFX_URL is the API's address, AFROFX_KEY the private key.
// Exits 1 on the first call or figure that is wrong.
import { ourMid, same } from './afrofx-check';

const BASE_URL = `${process.env.AFROFX_URL!}/v1`; // was https://data.fixer.io/api
const ACCESS_KEY = process.env.AFROFX_KEY!; // was API_KEY

interface FixerAnswer {
  success: boolean;
  error?: { code: number; type: string; info: string };
}
interface FixerRates extends FixerAnswer {
  base: string;
  date: string;
  rates: Record<string, number>;
}

async function fixer<T extends FixerAnswer>(endpoint: string): Promise<T> {
  const res = await fetch(
    `${BASE_URL}/${endpoint}${endpoint.includes('?') ? '&' : '?'}access_key=${ACCESS_KEY}`,
  );
  const json = (await res.json()) as T;
  if (!json.success) throw new Error(`${endpoint}: ${res.status} ${JSON.stringify(json.error)}`);
  return json;
}

async function main() {
  const mid = await ourMid('NGN', 'USD');

  // "Latest Rates Endpoint": latest?access_key=API_KEY&base=USD&symbols=GBP,JPY,EUR
  const latest = await fixer<FixerRates>('latest?base=USD&symbols=NGN');
  console.log(`latest: base ${latest.base}, ${latest.date}`);
  same('latest USD→NGN', latest.rates.NGN, mid);
  const naira = await fixer<FixerRates>('latest?base=NGN&symbols=USD');
  same('latest NGN→USD', naira.rates.USD, 1 / mid);

  // "Historical Rates Endpoint": 2013-12-24?access_key=API_KEY&base=GBP&symbols=USD,CAD,EUR
  const today = new Date().toISOString().slice(0, 10);
  const historical = await fixer<FixerRates & { historical: boolean }>(`${today}?base=NGN&symbols=USD`);
  same(`historical ${today} NGN→USD`, historical.rates.USD, 1 / mid);

  // "Time-Series Endpoint": timeseries?access_key=API_KEY&start_date=2012-05-01&end_date=2012-05-25
  const weekAgo = new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10);
  const series = await fixer<FixerAnswer & { rates: Record<string, Record<string, number>> }>(
    `timeseries?start_date=${weekAgo}&end_date=${today}&base=USD&symbols=NGN`,
  );
  same(`timeseries ${today} USD→NGN`, series.rates[today]?.NGN, mid);

  // "Fluctuation Endpoint": fluctuation?access_key=API_KEY&start_date=2018-02-25&end_date=2018-02-26
  const moves = await fixer<FixerAnswer & { rates: Record<string, { end_rate: number }> }>(
    `fluctuation?start_date=${weekAgo}&end_date=${today}&base=USD&symbols=NGN`,
  );
  same('fluctuation end USD→NGN', moves.rates.NGN?.end_rate, mid);

  // "Supported Symbols Endpoint": symbols?access_key=API_KEY
  const symbols = await fixer<FixerAnswer & { symbols: Record<string, string> }>('symbols');
  console.log(`symbols: ${Object.keys(symbols.symbols).join(', ')}`);

  // A pair nobody published is Fixer's error body, never a figure.
  const res = await fetch(`${BASE_URL}/latest?access_key=${ACCESS_KEY}&base=EUR&symbols=USD`);
  const refused = (await res.json()) as FixerAnswer;
  if (refused.success !== false || refused.error?.code !== 202) throw new Error(`EUR→USD: ${res.status}`);
  console.log(`latest EUR→USD: ${res.status} ${refused.error.type} ✓`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});

// A module of its own (its names are not global).
export {};

// An Open Exchange Rates customer's script: OXR's documented examples (https://docs.openexchangerates.org) with only
// the base URL and the app_id changed (and currencies AfroFX carries). Then, as CI, each figure is checked against
// AfroFX's own /v1/rates: our mid, or 1 / our mid. AFROFX_URL is the API's address, AFROFX_KEY the private key.
// Exits 1 on the first call or figure that is wrong.
import { ourMid, same } from './afrofx-check';

const BASE_URL = `${process.env.AFROFX_URL!}/v1`; // was https://openexchangerates.org/api
const APP_ID = process.env.AFROFX_KEY!; // was YOUR_APP_ID

interface OxrRates {
  timestamp: number;
  base: string;
  rates: Record<string, number>;
}

async function oxr<T>(path: string): Promise<T> {
  const res = await fetch(`${BASE_URL}/${path}${path.includes('?') ? '&' : '?'}app_id=${APP_ID}`);
  const body = (await res.json()) as T & { error?: boolean; description?: string };
  if (!res.ok || body.error) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

async function main() {
  // "Get the latest exchange rates": latest.json?app_id=YOUR_APP_ID
  const latest = await oxr<OxrRates>('latest.json');
  console.log(`latest.json: 1 US Dollar equals ${latest.rates.NGN} Nigerian Naira (base ${latest.base})`);
  const mid = await ourMid('NGN', 'USD');
  same('latest USD→NGN', latest.rates.NGN, mid);

  // "Changing the base currency" and "Requesting specific currencies": &base=NGN&symbols=USD
  const naira = await oxr<OxrRates>('latest.json?base=NGN&symbols=USD');
  same('latest NGN→USD', naira.rates.USD, 1 / mid);

  // "Historical": historical/YYYY-MM-DD.json
  const today = new Date().toISOString().slice(0, 10);
  const historical = await oxr<OxrRates>(`historical/${today}.json?symbols=NGN`);
  same(`historical ${today} USD→NGN`, historical.rates.NGN, mid);

  // "Currency conversion": convert/{value}/{from}/{to}
  const converted = await oxr<{ response: number; meta: { rate: number } }>('convert/19999.95/USD/NGN');
  console.log(`convert: 19999.95 USD = ${converted.response} NGN at ${converted.meta.rate}`);

  // "Usage": usage.json
  const usage = await oxr<{ data: { plan: { name: string }; usage: { requests: number } } }>('usage.json');
  console.log(`usage.json: plan ${usage.data.plan.name}, ${usage.data.usage.requests} requests`);

  // A pair nobody published is OXR's error body, never a figure.
  const res = await fetch(`${BASE_URL}/latest.json?app_id=${APP_ID}&base=EUR&symbols=USD`);
  const refused = (await res.json()) as { error?: boolean; message?: string };
  if (res.status !== 400 || refused.error !== true) throw new Error(`EUR→USD: ${res.status}`);
  console.log(`latest EUR→USD: ${res.status} ${refused.message} ✓`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});

// A module of its own (its names are not global).
export {};

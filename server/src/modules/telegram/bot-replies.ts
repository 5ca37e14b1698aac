// What the bot answers, worked out from the in-memory rates snapshot (no database query per message).
import {
  ASSET_DISPLAY,
  ASSETS,
  BASE_DISPLAY,
  BASES,
  MARKET_LABELS,
  MARKETS,
  baseSymbol,
  describeAlert,
  formatDateTime,
  formatNumber,
  fromIsoCode,
  type Asset,
  type Base,
  type Market,
  type QuoteWithoutAge,
  type RateAlert,
} from '@afrofx/shared';
import type { PublishedRate } from '../../queue/job-types';

export const HELP = [
  'AfroFX rates bot. Commands:',
  '/rates [base] [market] — the board of a base, e.g. /rates KES bank',
  '/rate USD NGN [cash] — one pair',
  '/convert 100 USD NGN [market] — a conversion',
  '/daily — one message with the rates at every publication',
  '/alert USD NGN above 1600 [cash] [sell] — tell me when the figure crosses a line (or: move 2 for a 2 % move)',
  '/alerts — your alerts, each with a remove button',
  '/stop — unsubscribe this chat from everything',
  'Bases: NGN, KES, ZAR, GHS. Assets: USD, EUR, GBP, CAD. Markets: cash (default), bank, transfer.',
].join('\n');

const MARKET_WORDS: Record<string, Market> = {
  cash: 'black_market_cash',
  bank: 'bank',
  transfer: 'black_market_transfer',
};

export const marketOf = (word: string | undefined): Market | undefined =>
  word === undefined ? undefined : (MARKET_WORDS[word.toLowerCase()] ?? MARKETS.find((m) => m === word));

/** USD, EUR (or the site's EURO), GBP, CAD, NGN, KES, ZAR, GHS, in any case. */
function currencyOf(word: string | undefined): Asset | Base | undefined {
  if (!word) return undefined;
  const id = word.toUpperCase() === 'EURO' ? 'euro' : fromIsoCode(word);
  return [...ASSETS, ...BASES].find((c) => c === id);
}
export const assetOf = (word?: string) => {
  const c = currencyOf(word);
  return (ASSETS as readonly string[]).includes(c ?? '') ? (c as Asset) : undefined;
};
export const baseOf = (word?: string) => {
  const c = currencyOf(word);
  return (BASES as readonly string[]).includes(c ?? '') ? (c as Base) : undefined;
};

const code = (c: Asset | Base) =>
  c in ASSET_DISPLAY ? ASSET_DISPLAY[c as Asset].code : BASE_DISPLAY[c as Base].code;
const money = (base: Base, value: number) => `${baseSymbol(base)}${formatNumber(value)}`;
const published = (at: string | Date) => formatDateTime(at, 'UTC');

function find(quotes: QuoteWithoutAge[], market: Market, base: Base, asset: Asset) {
  return quotes.find((q) => q.market === market && q.base === base && q.asset === asset);
}

export function board(quotes: QuoteWithoutAge[], base: Base, market: Market): string {
  const rows = quotes.filter((q) => q.base === base && q.market === market);
  if (rows.length === 0) return `No ${MARKET_LABELS[market]} rates for ${BASE_DISPLAY[base].code} yet.`;
  const lines = rows.map(
    (q) =>
      `${ASSET_DISPLAY[q.asset].flag} ${code(q.asset)}: buy ${money(base, q.buy)} · sell ${money(base, q.sell)}`,
  );
  const latest = rows
    .map((q) => q.updatedAt)
    .sort()
    .at(-1)!;
  return [
    `${BASE_DISPLAY[base].code} · ${MARKET_LABELS[market]} market`,
    ...lines,
    `Published ${published(latest)}`,
  ].join('\n');
}

export function pair(quotes: QuoteWithoutAge[], asset: Asset, base: Base, market: Market): string {
  const q = find(quotes, market, base, asset);
  if (!q) return `No ${MARKET_LABELS[market]} rate for ${code(asset)}/${code(base)} yet.`;
  return `${code(asset)}/${code(base)} · ${MARKET_LABELS[market]}: buy ${money(base, q.buy)} · sell ${money(base, q.sell)}\nPublished ${published(q.updatedAt)}`;
}

/**
 * The side rule: foreign currency converted into the base is bought from the visitor at the buy price; the base
 * converted into foreign currency is sold to them at the sell price.
 */
export function convert(
  quotes: QuoteWithoutAge[],
  amount: number,
  from: Asset | Base,
  to: Asset | Base,
  market: Market,
): string {
  const asset = (ASSETS as readonly string[]).includes(from) ? (from as Asset) : (to as Asset);
  const base = asset === from ? (to as Base) : (from as Base);
  if (!(ASSETS as readonly string[]).includes(asset) || !(BASES as readonly string[]).includes(base))
    return 'Convert between a foreign currency (USD, EUR, GBP, CAD) and a base (NGN, KES, ZAR, GHS).';
  const q = find(quotes, market, base, asset);
  if (!q) return `No ${MARKET_LABELS[market]} rate for ${code(asset)}/${code(base)} yet.`;
  const intoBase = from === asset;
  const rate = intoBase ? q.buy : q.sell;
  const result = intoBase ? amount * rate : amount / rate;
  const shown = intoBase ? money(base, result) : `${ASSET_DISPLAY[asset].symbol}${formatNumber(result)}`;
  return `${formatNumber(amount)} ${code(from)} = ${shown} ${code(to)}\nAt the ${MARKET_LABELS[market]} ${intoBase ? 'buy' : 'sell'} rate ${money(base, rate)} (${intoBase ? 'foreign currency into the base uses the buy price' : 'the base into foreign currency uses the sell price'})\nPublished ${published(q.updatedAt)}`;
}

/** One message per publication (/daily): every pair it changed. */
export function publicationMessage(publishedAt: string, rates: PublishedRate[]): string {
  const lines = rates.map(
    (r) =>
      `${ASSET_DISPLAY[r.asset].flag} ${code(r.asset)}/${code(r.base)} ${MARKET_LABELS[r.market]}: buy ${money(r.base, r.buy)} · sell ${money(r.base, r.sell)}`,
  );
  return [`AfroFX rates published ${published(publishedAt)}`, ...lines].join('\n');
}

export function alertFiredMessage(
  alert: Pick<RateAlert, 'market' | 'base' | 'asset' | 'side' | 'condition' | 'level'>,
  figure: number,
  publishedAt: Date,
): string {
  return `Alert: ${describeAlert(alert)}\nThe ${alert.side} figure is now ${money(alert.base, figure)} (${MARKET_LABELS[alert.market]} market, AfroFX publication of ${published(publishedAt)}).`;
}

// The figures of the Open Exchange Rates- and Fixer-compatible calls, in their direction: units of each symbol per
// one base. We publish, per market, how many units of a base (NGN, KES, ZAR, GHS) one asset (USD, EUR, GBP, CAD)
// costs. So base=USD&symbols=NGN is our mid as published, base=NGN&symbols=USD is 1 / that mid, and a pair of two
// assets or two bases is refused: nobody published it, and a cross rate would be a figure of our own making.
import {
  ASSETS,
  BASES,
  ISO_CODES,
  midPrice,
  type Asset,
  type Base,
  type Market,
  type QuoteWithoutAge,
  type RateHistoryPoint,
} from '@afrofx/shared';
import { peerFault } from './peer-errors';
import type { FastifyRequest } from 'fastify';

/** Significant digits of an inverted rate (1 / mid): more than any peer publishes, fewer than a double holds. */
export const INVERSE_DIGITS = 12;

const CODES = [...ASSETS, ...BASES].map((id) => ISO_CODES[id]);
const idOf = (code: string) =>
  (Object.entries(ISO_CODES) as Array<[Asset | Base, string]>).find(([, iso]) => iso === code)?.[0];
const isAsset = (id: string): id is Asset => (ASSETS as readonly string[]).includes(id);

/** One published pair read in the peer's direction. */
export interface PeerPair {
  symbol: string;
  base: Base;
  asset: Asset;
  /** True when the peer's base is our base currency: the figure is 1 / our mid. */
  inverted: boolean;
}

/** A rate in the peer's direction from our mid. */
export function peerRate(pair: PeerPair, mid: number): number {
  return pair.inverted ? Number((1 / mid).toPrecision(INVERSE_DIGITS)) : mid;
}

/** The ISO code of a base parameter, or a 400 in the peer's shape for a currency we do not carry. */
export function baseCode(request: FastifyRequest, base: string): string {
  const code = base.trim().toUpperCase();
  if (!CODES.includes(code))
    throw peerFault(
      request,
      'invalid_base',
      `base: ${base} is not a currency AfroFX carries. Use one of ${CODES.join(', ')}.`,
    );
  return code;
}

/**
 * The pairs a base and symbols parameter ask for: every published counterpart of the base when symbols is absent.
 * A symbol we do not carry, or one we do not publish against this base, is a 400 in the peer's shape. The base
 * itself, when listed (or by default), is 1, as the peers answer it.
 */
export function peerPairs(request: FastifyRequest, base: string, symbols: string | undefined) {
  const baseId = idOf(base)!;
  const counterparts = (isAsset(baseId) ? BASES : ASSETS).map((id) => ISO_CODES[id]);
  const asked = symbols
    ? [...new Set(symbols.split(',').map((symbol) => symbol.trim().toUpperCase()))].filter(Boolean)
    : [base, ...counterparts];
  const pairs: PeerPair[] = [];
  let includesBase = false;
  for (const symbol of asked) {
    if (symbol === base) {
      includesBase = true;
      continue;
    }
    const id = idOf(symbol);
    if (!id || !counterparts.includes(symbol))
      throw peerFault(
        request,
        'invalid_currency',
        `symbols: ${symbol} against ${base} is not a pair AfroFX publishes. Against ${base} it publishes ${counterparts.join(', ')}; ` +
          'AfroFX carries NGN, KES, ZAR and GHS against USD, EUR, GBP and CAD, and no cross rate between two of either.',
      );
    pairs.push(
      isAsset(baseId)
        ? { symbol, base: id as Base, asset: baseId, inverted: false }
        : { symbol, base: baseId, asset: id as Asset, inverted: true },
    );
  }
  return { pairs, includesBase, explicit: symbols !== undefined };
}

/** The rates object of one market's table, and the newest update (Unix seconds) among the rates it holds. */
export function peerRates(
  request: FastifyRequest,
  asked: ReturnType<typeof peerPairs>,
  base: string,
  market: Market,
  quotes: Array<Pick<QuoteWithoutAge, 'market' | 'base' | 'asset' | 'mid' | 'updatedAt'>>,
) {
  const rates: Record<string, number> = {};
  let newest = 0;
  if (asked.includesBase) rates[base] = 1;
  for (const pair of asked.pairs) {
    const quote = quotes.find((q) => q.market === market && q.base === pair.base && q.asset === pair.asset);
    if (!quote) {
      if (asked.explicit) throw noRates(request, pair, market);
      continue;
    }
    rates[pair.symbol] = peerRate(pair, quote.mid);
    newest = Math.max(newest, Date.parse(quote.updatedAt));
  }
  return { rates, timestamp: newest ? Math.floor(newest / 1000) : undefined };
}

export function noRates(request: FastifyRequest, pair: PeerPair, market: Market) {
  return peerFault(
    request,
    'no_rates',
    `No ${market} rate for ${ISO_CODES[pair.asset]}/${ISO_CODES[pair.base]} in this period.`,
  );
}

/** Each day's figure of a pair from its history points (the day's last record's mid). */
export function peerSeries(pair: PeerPair, points: RateHistoryPoint[]) {
  return points.map((point) => ({ day: point.day, rate: peerRate(pair, midPrice(point)) }));
}

/** A rate's move from the first to the last day of a series, as Fixer's fluctuation answers it. */
export function fluctuation(series: Array<{ rate: number }>) {
  const start = series[0]!.rate;
  const end = series.at(-1)!.rate;
  const change = Number((end - start).toPrecision(INVERSE_DIGITS));
  return {
    start_rate: start,
    end_rate: end,
    change,
    change_pct: Math.round((change / start) * 100 * 10_000) / 10_000,
  };
}

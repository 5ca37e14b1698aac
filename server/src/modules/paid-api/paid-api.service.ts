// What the paid calls answer, apart from HTTP: the latest rates' bytes per filter, the premium and conversion maths,
// the currencies listing. Handlers charge between the work that can fail and the answer.
import {
  ASSETS,
  ASSET_DISPLAY,
  BASES,
  BASE_DISPLAY,
  DEFAULT_MARKET,
  describeQuote,
  formatUtcDate,
  fromIsoCode,
  ISO_CODES,
  MARKETS,
  MARKET_LABELS,
  withFreshness,
  type Asset,
  type Base,
  type Conversion,
  type ConvertQuery,
  type Market,
  type Premium,
  type QuoteWithoutAge,
  type RatesQuery,
} from '@afrofx/shared';
import { badRequest, notFound } from '../../errors';
import { ok } from '../../http';
import { PREMIUM_MARKETS, PREMIUM_WINDOWS, premiumOf, REFERENCE_MARKET, windowStart } from '../rates/premium';
import type { OfficialRate } from '../official-rates/official-rates.repo';
import type { RatesService } from '../rates/rates.service';
import type { RatesSnapshot, RatesSnapshotSource } from '../rates/rates-snapshot';

function httpDate(iso: string | undefined) {
  return iso ? new Date(iso).toUTCString() : undefined;
}

function newestUpdate(quotes: QuoteWithoutAge[]) {
  return quotes.reduce<string | undefined>(
    (max, r) => (!max || r.updatedAt > max ? r.updatedAt : max),
    undefined,
  );
}

/** The assets of a symbols parameter (ISO codes or ids), or a 400 naming the one not known. */
function assetsOf(symbols: string): Asset[] {
  return symbols.split(',').map((symbol) => {
    const asset = fromIsoCode(symbol);
    if (!(ASSETS as readonly string[]).includes(asset))
      throw badRequest(
        `symbols: "${symbol}" is not an asset. Use ${ASSETS.map((a) => ISO_CODES[a]).join(', ')} (or ${ASSETS.join(', ')}).`,
      );
    return asset as Asset;
  });
}

/** One filter of the rates table: which quotes it keeps, and the ETag of its answer for a snapshot version. */
export interface RatesFilter {
  keep(quotes: QuoteWithoutAge[]): QuoteWithoutAge[];
  etag(version: string): string;
}

/**
 * `open` is the markets the key's plan opens when it opens only some: without a market asked for, the
 * answer keeps those, and the ETag names them, as bodies are shared by ETag.
 */
export function ratesFilter(
  { market, base, asset, symbols, date }: RatesQuery,
  open?: readonly Market[],
): RatesFilter {
  const limited = !market && open && open.length < MARKETS.length ? open : undefined;
  const assets =
    symbols || asset
      ? [...new Set([...(asset ? [asset as Asset] : []), ...(symbols ? assetsOf(symbols) : [])])]
      : undefined;
  return {
    keep: (quotes) =>
      quotes.filter(
        (r) =>
          (!market || r.market === market) &&
          (!limited || limited.includes(r.market)) &&
          (!base || r.base === base) &&
          (!assets || assets.includes(r.asset)),
      ),
    etag: (version) =>
      `"${version}-${market ?? limited?.join('+') ?? ''}-${base ?? ''}-${assets?.join('+') ?? ''}-${date ?? ''}"`,
  };
}

function currencyListing() {
  const isoName = new Intl.DisplayNames('en', { type: 'currency' });
  // Intl's English symbol where it has one (CA$ tells the Canadian dollar from the US one), else the local sign.
  const isoSymbol = (code: string, local: string) => {
    const symbol = new Intl.NumberFormat('en', { style: 'currency', currency: code })
      .formatToParts(0)
      .find((part) => part.type === 'currency')!.value;
    return symbol === code ? local : symbol;
  };
  return {
    markets: MARKETS.map((id) => ({ id, label: MARKET_LABELS[id] })),
    bases: BASES.map((id) => ({
      id,
      code: ISO_CODES[id],
      name: isoName.of(ISO_CODES[id])!,
      symbol: isoSymbol(ISO_CODES[id], BASE_DISPLAY[id].symbol),
    })),
    assets: ASSETS.map((id) => ({
      id,
      code: ISO_CODES[id],
      name: isoName.of(ISO_CODES[id])!,
      symbol: isoSymbol(ISO_CODES[id], ASSET_DISPLAY[id].symbol),
      flag: ASSET_DISPLAY[id].flag,
      country: ASSET_DISPLAY[id].country,
    })),
  };
}

export function createPaidApiService(deps: {
  rates: RatesService;
  snapshot: RatesSnapshotSource;
  staleAfterMs: number;
  /** A pair's official figures from a day to another, for the premium's windows. */
  officialOfPair?: (pair: { base: Base; asset: Asset }, from: string, to: string) => Promise<OfficialRate[]>;
}) {
  const { rates, snapshot, staleAfterMs } = deps;

  // Every caller of a filter gets the same bytes until the snapshot changes or the second turns (ageSeconds):
  // each filter is serialized at most once a second, and kept as bytes so no answer encodes it again.
  const ratesBodies = new Map<string, { second: number; body: Buffer; lastModified: string | undefined }>();
  let ratesBodiesVersion = '';

  // A pair's premium changes with the rates or the UTC day: computed once per snapshot version, day and pair
  // (callers arriving while it is computed share the one query; a failed query is not kept).
  const premiums = new Map<string, Promise<Premium>>();
  let premiumsKey = '';

  return {
    currencies: currencyListing(),

    /** The latest table of one filter, as the bytes of its answer. */
    latestBody(current: RatesSnapshot, filter: RatesFilter, etag: string) {
      if (current.version !== ratesBodiesVersion) {
        ratesBodies.clear();
        ratesBodiesVersion = current.version;
      }
      const now = Date.now();
      const second = Math.floor(now / 1000);
      let cached = ratesBodies.get(etag);
      if (!cached || cached.second !== second) {
        const quotes = filter.keep(current.rates);
        cached = {
          second,
          body: Buffer.from(JSON.stringify(ok(withFreshness(quotes, now, staleAfterMs), 'Rates fetched.'))),
          lastModified: httpDate(newestUpdate(quotes)),
        };
        ratesBodies.set(etag, cached);
      }
      return cached;
    },

    /** The table as it stood at the end of a UTC day (today or earlier). */
    async datedTable(date: string, filter: RatesFilter) {
      const dayEnd = new Date(`${date}T00:00:00.000Z`);
      dayEnd.setUTCDate(dayEnd.getUTCDate() + 1);
      const table = await rates.latestWithPreviousClose(undefined, dayEnd);
      const quotes = filter.keep(table.map(({ rate, previousClose }) => describeQuote(rate, previousClose)));
      return {
        lastModified: httpDate(newestUpdate(quotes)),
        answer: () => ok(withFreshness(quotes, Date.now(), staleAfterMs), 'Rates fetched.'),
      };
    },

    async premium(base: Base, asset: Asset): Promise<Premium> {
      const current = await snapshot.get();
      const today = formatUtcDate(new Date());
      if (premiumsKey !== `${current.version}-${today}`) {
        premiums.clear();
        premiumsKey = `${current.version}-${today}`;
      }
      const key = `${base}-${asset}`;
      let pending = premiums.get(key);
      if (!pending) {
        const from = windowStart(today, PREMIUM_WINDOWS.last30Days);
        const official = current.official.find((o) => o.base === base && o.asset === asset);
        pending = Promise.all([
          rates.dailyCloses(base, asset, [REFERENCE_MARKET, ...PREMIUM_MARKETS], from),
          official && deps.officialOfPair ? deps.officialOfPair({ base, asset }, from, today) : undefined,
        ]).then(([closes, daily]) =>
          premiumOf(
            base,
            asset,
            current.rates,
            closes,
            today,
            official && { latest: official, daily: daily ?? [] },
          ),
        );
        premiums.set(key, pending);
        pending.catch(() => premiums.get(key) === pending && premiums.delete(key));
      }
      return pending;
    },

    /** The conversion at the snapshot's rate: a 400 for two assets or two bases, a 404 without a rate yet. */
    async convert(query: ConvertQuery): Promise<Conversion> {
      const { amount, from, to } = query;
      const market = query.market ?? DEFAULT_MARKET;
      const fromAsset = (ASSETS as readonly string[]).includes(from);
      // A customer changing dollars into naira gets the dealer's buy price; one changing naira into dollars pays the sell price.
      const side = query.side ?? (fromAsset ? 'buy' : 'sell');
      const toAsset = (ASSETS as readonly string[]).includes(to);
      if (fromAsset === toAsset)
        throw badRequest('The from and to parameters must be one asset and one base currency.');
      const asset = (fromAsset ? from : to) as Asset;
      const base = (fromAsset ? to : from) as Base;
      const rate = (await snapshot.get()).rates.find(
        (r) => r.market === market && r.base === base && r.asset === asset,
      );
      if (!rate) throw notFound(`No ${market} rate for ${asset}/${base} yet.`);
      const price = side === 'buy' ? rate.buy : rate.sell;
      const result = Math.round((fromAsset ? amount * price : amount / price) * 10_000) / 10_000;
      return { amount, from, to, market, side, rate: price, result, rateUpdatedAt: rate.updatedAt };
    },
  };
}

export type PaidApiService = ReturnType<typeof createPaidApiService>;

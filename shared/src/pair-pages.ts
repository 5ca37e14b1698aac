// One public page per base/asset pair: its URL and the words its title and description use, so the
// server's rendering and the web's route read them from one place.
import { ASSET_DISPLAY, ASSETS, BASE_DISPLAY, BASES, type Asset, type Base } from './constants';

/** How a sentence names the asset ("Dollar to naira today"). */
export const ASSET_NAMES: Record<Asset, string> = {
  dollar: 'Dollar',
  euro: 'Euro',
  british_pounds: 'British pound',
  canadian_dollar: 'Canadian dollar',
};

/** How a sentence names the base currency, lower case as in "dollar to naira". */
export const BASE_NAMES: Record<Base, string> = {
  naira: 'naira',
  'kenyan-shilling': 'Kenyan shilling',
  rand: 'rand',
  cedis: 'cedi',
};

export interface Pair {
  base: Base;
  asset: Asset;
}

// Hyphens, as in every other public URL: `british_pounds` reads as `british-pounds`.
const slug = (name: string) => name.replace(/_/g, '-');

/** The one canonical URL of a pair page, e.g. /rates/naira/dollar. */
export function pairPath({ base, asset }: Pair): string {
  return `/rates/${slug(base)}/${slug(asset)}`;
}

export const PAIRS: readonly Pair[] = BASES.flatMap((base) => ASSETS.map((asset) => ({ base, asset })));

/** The pair a canonical URL's two segments name, or undefined. */
export function pairOfSlugs(baseSlug: string, assetSlug: string): Pair | undefined {
  return PAIRS.find((pair) => slug(pair.base) === baseSlug && slug(pair.asset) === assetSlug);
}

/**
 * The pair of an alias that people type or search for: currency codes (`usd-to-ngn`), or the names with an
 * underscore or in another case (`/rates/naira/british_pounds`). Canonical URLs redirect nowhere.
 */
export function pairOfAlias(path: string): Pair | undefined {
  const lower = path.toLowerCase();
  const codes = /^\/([a-z]{3,4})-to-([a-z]{3})$/.exec(lower);
  if (codes) {
    return PAIRS.find(
      (pair) =>
        ASSET_DISPLAY[pair.asset].code.toLowerCase() === codes[1] &&
        BASE_DISPLAY[pair.base].code.toLowerCase() === codes[2],
    );
  }
  const names = /^\/rates\/([a-z_-]+)\/([a-z_-]+)\/?$/.exec(lower);
  if (!names) return undefined;
  const pair = pairOfSlugs(slug(names[1]!), slug(names[2]!));
  return pair && pairPath(pair) !== path ? pair : undefined;
}

/** "Dollar to naira" */
export function pairName({ base, asset }: Pair): string {
  return `${ASSET_NAMES[asset]} to ${BASE_NAMES[base]}`;
}

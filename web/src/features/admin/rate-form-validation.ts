import {
  ASSET_DISPLAY,
  ASSETS,
  BASE_DISPLAY,
  baseSymbol,
  BASES,
  formatNumber,
  MARKET_LABELS,
  MARKETS,
  type Asset,
  type Base,
  type Market,
  type Rate,
  type RateInput,
} from '@afrofx/shared';

export interface RateFormValues {
  market: string;
  asset: string;
  base: string;
  buy: string;
  sell: string;
}

export type RateFormErrors = Partial<Record<keyof RateFormValues, string>>;

const isOneOf = <T extends string>(values: readonly T[], value: string): value is T =>
  (values as readonly string[]).includes(value);

function priceError(label: string, text: string): string | undefined {
  const trimmed = text.trim();
  if (!trimmed) return `${label} is required.`;
  if (!/^\d+(\.\d+)?$/.test(trimmed) && !/^\.\d+$/.test(trimmed)) return `${label} must be a number.`;
  if (Number(trimmed) <= 0) return `${label} must be greater than zero.`;
  return undefined;
}

/** SPEC §5: market, asset, base, buy and sell are all required; buy and sell are numeric. */
export function validateRateForm(values: RateFormValues): { errors: RateFormErrors; input?: RateInput } {
  const errors: RateFormErrors = {
    market: isOneOf(MARKETS, values.market) ? undefined : 'Market is required.',
    asset: isOneOf(ASSETS, values.asset) ? undefined : 'Asset is required.',
    base: isOneOf(BASES, values.base) ? undefined : 'Base is required.',
    buy: priceError('Buy', values.buy),
    sell: priceError('Sell', values.sell),
  };
  if (Object.values(errors).some(Boolean)) return { errors };
  return {
    errors: {},
    input: {
      market: values.market as Market,
      asset: values.asset as Asset,
      base: values.base as Base,
      buy: Number(values.buy.trim()),
      sell: Number(values.sell.trim()),
    },
  };
}

/** A new price this far from the latest for its pair and market is asked about before it is saved (a fat finger). */
export const RATE_DRIFT_CONFIRM_PCT = 20;

/**
 * What to ask the admin about before saving a valid rate: sell below buy, and a buy or sell more than
 * RATE_DRIFT_CONFIRM_PCT % from the latest rate of the same market, asset and base.
 */
export function rateEntryWarnings(input: RateInput, latest: readonly Rate[]): string[] {
  const money = (value: number) => `${baseSymbol(input.base)}${formatNumber(value)}`;
  const warnings: string[] = [];
  if (input.sell < input.buy) {
    warnings.push(`Sell (${money(input.sell)}) is below Buy (${money(input.buy)}).`);
  }
  const previous = latest.find(
    (rate) => rate.market === input.market && rate.asset === input.asset && rate.base === input.base,
  );
  if (!previous) return warnings;
  const pair = `${ASSET_DISPLAY[input.asset].code}/${BASE_DISPLAY[input.base].code}`;
  for (const side of ['sell', 'buy'] as const) {
    const change = ((input[side] - previous[side]) / previous[side]) * 100;
    if (Math.abs(change) <= RATE_DRIFT_CONFIRM_PCT) continue;
    warnings.push(
      `${side === 'sell' ? 'Sell' : 'Buy'} ${money(input[side])} is ${formatNumber(Math.abs(change), 1)} % ${
        change > 0 ? 'above' : 'below'
      } the latest ${MARKET_LABELS[input.market].toLowerCase()} ${pair} rate (${money(previous[side])}).`,
    );
  }
  return warnings;
}

import {
  ASSET_DISPLAY,
  BASE_DISPLAY,
  baseSymbol,
  formatNumber,
  MARKET_LABELS,
  RateInput,
  type Rate,
} from '@afrofx/shared';
import { contractValidation, numberFrom, type FieldMessages } from '../../lib/contract-form';

export interface RateFormValues {
  market: string;
  asset: string;
  base: string;
  buy: string;
  sell: string;
}

/** A price: a plain decimal number, no sign or exponent. */
const DECIMAL = /^(\d+(\.\d+)?|\.\d+)$/;

const price = (label: string): FieldMessages => ({
  required: `${label} is required.`,
  invalid: `${label} must be a number.`,
  tooSmall: `${label} must be greater than zero.`,
  tooLarge: ({ maximum }) => `${label} must be at most ${formatNumber(maximum!, 0)}.`,
});
const choice = (label: string): FieldMessages => ({
  required: `${label} is required.`,
  invalid: `${label} is required.`,
});

/** SPEC §5: market, asset, base, buy and sell are all required; buy and sell are numeric (RateInput's rules). */
export const validateRateForm = contractValidation({
  schema: RateInput,
  toInput: (values: RateFormValues) => ({
    market: values.market || undefined,
    asset: values.asset || undefined,
    base: values.base || undefined,
    buy: numberFrom(values.buy, DECIMAL),
    sell: numberFrom(values.sell, DECIMAL),
  }),
  messages: {
    market: choice('Market'),
    asset: choice('Asset'),
    base: choice('Base'),
    buy: price('Buy'),
    sell: price('Sell'),
  },
});

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

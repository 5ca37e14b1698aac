import { ASSETS, BASES, MARKETS, type Asset, type Base, type Market, type RateInput } from '@afrofx/shared';

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

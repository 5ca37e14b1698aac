// SPEC §9 pricing, once for both sides: the browser shows a plan's price with it and the server charges with it.
// Exact arithmetic on whole minor units (cents, kobo): a price is never a binary-float product.
import { FALLBACK_USD_RATE, type PaymentCurrency } from './constants';
import type { Rate } from './contracts/rates';

/** SPEC §9: the 0.4 percent fee, amount times 1.004 (as thousandths, so the product stays a whole number). */
export const PAYMENT_FEE_PER_THOUSAND = 1004n;
/** Rates are stored with 6 decimals (numeric(20, 6)). */
const RATE_SCALE = 1_000_000n;

/** Whole cents of a dollar amount; refuses amounts with more than 2 decimals, which no price may have. */
export function toCents(dollars: number): number {
  const cents = Math.round(dollars * 100);
  if (!Number.isSafeInteger(cents) || cents < 0 || Math.abs(cents - dollars * 100) > 1e-6) {
    throw new RangeError(`not an amount of whole cents: ${dollars}`);
  }
  return cents;
}

const divideRoundingHalfUp = (value: bigint, by: bigint) => (value + by / 2n) / by;

/**
 * SPEC §9 / DESIGN §4: what a plan of `amount` dollars a year costs in `currency`, in minor units (cents or kobo).
 * USD: the amount with the fee, to the cent. NGN: the amount with the fee, times the dollar buy rate, kept to 2
 * decimals, then its integer part (whole naira).
 */
export function planPriceMinor(amount: number, currency: PaymentCurrency, usdBuyRate: number): number {
  const withFee = BigInt(toCents(amount)) * PAYMENT_FEE_PER_THOUSAND; // cents × 1000
  if (currency === 'USD') return Number(divideRoundingHalfUp(withFee, 1000n));
  const rate = BigInt(Math.round(usdBuyRate * Number(RATE_SCALE)));
  if (rate <= 0n) throw new RangeError(`not a rate: ${usdBuyRate}`);
  // cents × 1000 × rate × 10^6 is naira × 10^11: keep 2 decimals (half up), then the integer part.
  const hundredths = divideRoundingHalfUp(withFee * rate, 1000n * RATE_SCALE);
  return Number((hundredths / 100n) * 100n);
}

/**
 * The fee within a plan's price, in minor units: the price less what the plan costs without the fee, converted the
 * same way, so the plan line and the fee line of a receipt add up to the price to the unit.
 */
export function planFeeMinor(amount: number, currency: PaymentCurrency, usdBuyRate: number): number {
  const cents = BigInt(toCents(amount));
  if (currency === 'USD') return planPriceMinor(amount, currency, usdBuyRate) - Number(cents);
  const rate = BigInt(Math.round(usdBuyRate * Number(RATE_SCALE)));
  const withoutFee = (divideRoundingHalfUp(cents * rate, RATE_SCALE) / 100n) * 100n;
  return planPriceMinor(amount, currency, usdBuyRate) - Number(withoutFee);
}

/** Minor units as the major amount a person reads and a provider charges (37148_00 kobo: 37148). */
export const fromMinor = (minor: number): number => minor / 100;

/** What a plan costs in `currency`, in the currency's major units, as the Plans tab shows it. */
export function planPrice(amount: number, currency: PaymentCurrency, usdBuyRate: number): number {
  return fromMinor(planPriceMinor(amount, currency, usdBuyRate));
}

/**
 * SPEC §9: the NGN price uses the current dollar buy rate of the cash market (asset 'dollar', base naira), or 740
 * when none is loaded.
 */
export function usdBuyRate(rates: ReadonlyArray<Pick<Rate, 'market' | 'asset' | 'base' | 'buy'>>): number {
  const dollar = rates.find(
    (r) => r.market === 'black_market_cash' && r.asset === 'dollar' && r.base === 'naira',
  );
  return dollar && dollar.buy > 0 ? dollar.buy : FALLBACK_USD_RATE;
}

import { convertFunds } from '@afrofx/shared';

/** Reads a typed amount ("1,250.50" or "1250.5"); undefined when it is not a non-negative number. */
export function parseAmount(text: string): number | undefined {
  const cleaned = text.replace(/,/g, '').trim();
  if (!/^\d*\.?\d*$/.test(cleaned) || cleaned === '' || cleaned === '.') return undefined;
  return Number(cleaned);
}

/** SPEC §9: a foreign amount in naira is the product kept to 2 decimals, then its integer part. */
export function foreignToNaira(amount: number, rate: number): number {
  return convertFunds(amount, rate);
}

/** The foreign amount a naira balance buys, to the cent and never more than the balance covers. */
export function nairaToForeign(naira: number, rate: number): number {
  return rate > 0 ? Math.floor(Number(((naira / rate) * 100).toFixed(6))) / 100 : 0;
}

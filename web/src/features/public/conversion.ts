import { convertFunds } from '@afrofx/shared';

/** Reads a typed amount ("1,250.50" or "1250.5"); undefined when it is not a non-negative number. */
export function parseAmount(text: string): number | undefined {
  const cleaned = text.replace(/,/g, '').trim();
  if (!/^\d*\.?\d*$/.test(cleaned) || cleaned === '' || cleaned === '.') return undefined;
  return Number(cleaned);
}

/** SPEC §9: a foreign amount in the base is the product kept to 2 decimals, then its integer part. */
export function foreignToBase(amount: number, rate: number): number {
  return convertFunds(amount, rate);
}

/** The foreign amount a base balance buys, to the cent and never more than the balance covers. */
export function baseToForeign(balance: number, rate: number): number {
  return rate > 0 ? Math.floor(Number(((balance / rate) * 100).toFixed(6))) / 100 : 0;
}

export type Direction = 'into-base' | 'from-base';
export type SideChoice = 'auto' | 'buy' | 'sell';

/**
 * The price a conversion uses: foreign currency converted into the base is bought at the buy price, the base
 * converted into foreign currency is sold at the sell price; a side the visitor picks overrides the rule.
 */
export const sideFor = (direction: Direction, choice: SideChoice): 'buy' | 'sell' =>
  choice !== 'auto' ? choice : direction === 'into-base' ? 'buy' : 'sell';

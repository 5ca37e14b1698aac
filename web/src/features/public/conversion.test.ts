import { baseToForeign, foreignToBase, parseAmount, sideFor } from './conversion';

describe('rate calculator arithmetic', () => {
  it('reads amounts typed with or without thousands separators', () => {
    expect(parseAmount('1,250.50')).toBe(1250.5);
    expect(parseAmount(' 100 ')).toBe(100);
  });

  it('refuses text that is not an amount', () => {
    expect(parseAmount('')).toBeUndefined();
    expect(parseAmount('12a')).toBeUndefined();
    expect(parseAmount('-5')).toBeUndefined();
    expect(parseAmount('.')).toBeUndefined();
  });

  it('converts a foreign amount to whole naira (SPEC §9: 2 decimals, then the integer part)', () => {
    expect(foreignToBase(100, 1530.55)).toBe(153055);
    expect(foreignToBase(1.5, 1530.55)).toBe(2295);
  });

  it('converts a naira balance to the foreign amount it covers, to the cent', () => {
    expect(baseToForeign(153055, 1530.55)).toBe(100);
    expect(baseToForeign(1000, 1530)).toBe(0.65);
  });
});

describe('sideFor', () => {
  it('uses the buy price into the base, the sell price out of it, and a chosen side over both', () => {
    expect(sideFor('into-base', 'auto')).toBe('buy');
    expect(sideFor('from-base', 'auto')).toBe('sell');
    expect(sideFor('into-base', 'sell')).toBe('sell');
    expect(sideFor('from-base', 'buy')).toBe('buy');
  });
});

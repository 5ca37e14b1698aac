import { FALLBACK_USD_RATE } from './constants';
import { planFeeMinor, planPrice, planPriceMinor, toCents, usdBuyRate } from './pricing';

describe('planPriceMinor in USD (SPEC §9: amount times 1.004, to the cent)', () => {
  it.each([
    [50, 5020],
    [480, 48192],
    [99.99, 10039], // 100.38996 rounds to 100.39
    [0.01, 1], // 0.01004
    [1000, 100400],
    [0.1, 10], // 0.1004; a float product would read 0.1004000…01
  ])('a plan of $%p costs %p cents', (amount, cents) => {
    expect(planPriceMinor(amount, 'USD', FALLBACK_USD_RATE)).toBe(cents);
  });

  it('ignores the rate', () => {
    expect(planPriceMinor(50, 'USD', 1500)).toBe(planPriceMinor(50, 'USD', 740));
  });
});

describe('planPriceMinor in NGN (SPEC §9: fee, times the dollar buy rate, keep 2 decimals, integer part)', () => {
  it.each([
    [50, 740, 37148_00], // 50.2 × 740 = 37148
    [99.99, 740, 74288_00], // 100.38996 × 740 = 74288.5704 → 74288.57 → 74288
    [50, 1465.5, 73568_00], // 50.2 × 1465.5 = 73568.1
    [1, 12.94422, 13_00], // 1.004 × 12.94422 = 12.99599688 → 13.00 (2 decimals first) → 13
    [1, 12.9422, 12_00], // 12.9939688 → 12.99 → 12
  ])('a plan of $%p at %p costs %p kobo', (amount, rate, kobo) => {
    expect(planPriceMinor(amount, 'NGN', rate)).toBe(kobo);
  });

  it('always charges whole naira', () => {
    for (const amount of [1, 9.99, 49.5, 120, 1999.99]) {
      for (const rate of [740, 1450.25, 1612.123456]) {
        expect(planPriceMinor(amount, 'NGN', rate) % 100).toBe(0);
      }
    }
  });

  it('refuses a rate that is not above zero', () => {
    expect(() => planPriceMinor(50, 'NGN', 0)).toThrow(RangeError);
  });
});

describe('planFeeMinor (the receipt: plan line + fee line = price, to the unit)', () => {
  it.each([
    [50, 'USD', 740, 20], // 50.00 + 0.20
    [99.99, 'USD', 740, 40], // 99.99 + 0.40 = 100.39
    [50, 'NGN', 740, 148_00], // 37000 + 148 = 37148
    [99.99, 'NGN', 740, 296_00], // 73992.6 → 73992, + 296 = 74288
  ] as const)('a plan of $%p in %s at %p has a fee of %p minor units', (amount, currency, rate, fee) => {
    expect(planFeeMinor(amount, currency, rate)).toBe(fee);
    expect(planPriceMinor(amount, currency, rate) - fee).toBeGreaterThan(0);
  });
});

describe('planPrice', () => {
  it('answers major units, as shown and charged', () => {
    expect(planPrice(99.99, 'USD', 740)).toBe(100.39);
    expect(planPrice(50, 'NGN', 740)).toBe(37148);
  });
});

describe('toCents', () => {
  it('takes amounts of whole cents', () => {
    expect(toCents(19.99)).toBe(1999);
    expect(toCents(0)).toBe(0);
  });
  it('refuses fractions of a cent and negative amounts', () => {
    expect(() => toCents(1.005)).toThrow(RangeError);
    expect(() => toCents(-1)).toThrow(RangeError);
  });
});

describe('usdBuyRate (SPEC §9: the cash-market dollar buy rate, fallback 740)', () => {
  const rate = (market: string, asset: string, base: string, buy: number) =>
    ({ market, asset, base, buy }) as Parameters<typeof usdBuyRate>[0][number];

  it('takes the dollar buy rate of the cash market against the naira', () => {
    expect(
      usdBuyRate([
        rate('bank', 'dollar', 'naira', 1500),
        rate('black_market_cash', 'dollar', 'cedis', 15),
        rate('black_market_cash', 'euro', 'naira', 1700),
        rate('black_market_cash', 'dollar', 'naira', 1610.5),
      ]),
    ).toBe(1610.5);
  });

  it('falls back to 740 when none is loaded', () => {
    expect(usdBuyRate([])).toBe(740);
    expect(usdBuyRate([rate('bank', 'dollar', 'naira', 1500)])).toBe(740);
  });
});

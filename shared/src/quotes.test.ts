import { freshness, midPrice, premiumOver, quoteFigures } from './quotes';

describe('quote figures', () => {
  it('works in millionths, so decimal entries keep their precision', () => {
    expect(quoteFigures({ buy: 0.1, sell: 0.3 }, { buy: 0.1, sell: 0.2 })).toEqual({
      mid: 0.2,
      spread: 0.2,
      spreadPct: 100,
      change: 0.05,
      changePct: 33.3333,
    });
  });

  it('rounds a mid that falls between two millionths half up', () => {
    expect(midPrice({ buy: 1.000001, sell: 1.000002 })).toBe(1.000002);
  });

  it('has no change without a previous close', () => {
    expect(quoteFigures({ buy: 10, sell: 11 }, null)).toEqual(
      expect.objectContaining({ change: null, changePct: null }),
    );
  });
});

describe('premium over the bank market', () => {
  it('compares buy with buy, sell with sell and mid with mid', () => {
    expect(premiumOver({ buy: 1100, sell: 1173 }, { buy: 1000, sell: 1020 })).toEqual({
      buy: 10,
      sell: 15,
      mid: 12.5248,
    });
  });
});

describe('freshness', () => {
  it('is stale only past the limit', () => {
    expect(freshness(0, 7_200_000, 7_200_000)).toEqual({ ageSeconds: 7200, stale: false });
    expect(freshness(0, 7_201_000, 7_200_000)).toEqual({ ageSeconds: 7201, stale: true });
  });
});

import { contractProblems } from './problems';
import { PlanInput } from './plans';
import { RateInput } from './rates';

describe('contractProblems', () => {
  it('finds nothing in a request the contract takes', () => {
    expect(
      contractProblems(RateInput, { market: 'bank', asset: 'dollar', base: 'naira', buy: 1500, sell: 1520 }),
    ).toEqual([]);
  });

  it("checks the string enums and bounds the server checks, with the schema's bounds", () => {
    expect(
      contractProblems(RateInput, { market: 'moon', asset: 'dollar', base: 'naira', buy: 0, sell: 2e9 }).map(
        ({ path, kind }) => [path.join('/'), kind],
      ),
    ).toEqual([
      ['market', 'invalid'],
      ['buy', 'tooSmall'],
      ['sell', 'tooLarge'],
    ]);
    const [history] = contractProblems(PlanInput, {
      name: 'Growth',
      amount: 10,
      numberOfRequest: 10,
      entitlements: { endpoints: ['latest'], historyDays: 400, markets: ['bank'], burstPerSecond: 5 },
    });
    expect(history).toMatchObject({
      path: ['entitlements', 'historyDays'],
      kind: 'tooLarge',
      bounds: { maximum: 366 },
    });
  });

  it('reads an undefined property and an empty text as missing', () => {
    expect(contractProblems(PlanInput, { name: '', amount: undefined, numberOfRequest: 5 })).toEqual([
      expect.objectContaining({ path: ['amount'], kind: 'required' }),
      expect.objectContaining({ path: ['name'], kind: 'required' }),
    ]);
  });
});

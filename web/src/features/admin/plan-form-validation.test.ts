import { ALL_ENTITLEMENTS, PlanInput } from '@afrofx/shared';
import { entitlementValues, PLAN_NAME_MAX_LENGTH, validatePlanForm } from './plan-form-validation';

const valid = { name: 'Growth', amount: '49.99', numberOfRequest: '10000', ...entitlementValues() };

describe('validatePlanForm', () => {
  it('accepts the contract’s largest amount and request count', () => {
    expect(validatePlanForm({ ...valid, amount: '1000000', numberOfRequest: '1000000000' }).input).toEqual({
      name: 'Growth',
      amount: 1_000_000,
      numberOfRequest: 1_000_000_000,
      entitlements: { ...ALL_ENTITLEMENTS, endpoints: ['latest'] },
    });
  });

  it('accepts a free plan and narrowed entitlements, in the contract’s order', () => {
    expect(
      validatePlanForm({
        ...valid,
        amount: '0',
        endpoints: 'convert,latest',
        markets: 'bank',
        historyDays: '0',
        burstPerSecond: '2',
      }).input,
    ).toMatchObject({
      amount: 0,
      entitlements: {
        endpoints: ['latest', 'convert'],
        markets: ['bank'],
        historyDays: 0,
        burstPerSecond: 2,
      },
    });
  });

  it('refuses a plan that opens no endpoint or market, or a depth or rate out of bounds', () => {
    const { errors, input } = validatePlanForm({
      ...valid,
      endpoints: '',
      markets: '',
      historyDays: '400',
      burstPerSecond: '0',
    });
    expect(input).toBeUndefined();
    expect(errors).toEqual({
      endpoints: 'Tick at least one endpoint the plan opens.',
      markets: 'Tick at least one market the plan opens.',
      historyDays: 'History depth must be from 0 to 366.',
      burstPerSecond: 'Calls a second must be from 1 to 10,000.',
    });
  });

  it('refuses what the server would refuse above the contract’s maximum, with the bound in the message', () => {
    const { errors, input } = validatePlanForm({
      ...valid,
      amount: '1000000.01',
      numberOfRequest: '1000000001',
    });
    expect(input).toBeUndefined();
    expect(errors).toEqual({
      amount: 'Amount must be at most 1,000,000 dollars.',
      numberOfRequest: 'Number of requests must be at most 1,000,000,000.',
    });
  });

  it('bounds the name field by the contract', () => {
    expect(PLAN_NAME_MAX_LENGTH).toBe(PlanInput.properties.name.maxLength);
  });
});

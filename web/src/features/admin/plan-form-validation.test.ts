import { PlanInput } from '@afrofx/shared';
import { PLAN_NAME_MAX_LENGTH, validatePlanForm } from './plan-form-validation';

const valid = { name: 'Growth', amount: '49.99', numberOfRequest: '10000' };

describe('validatePlanForm', () => {
  it('accepts the contract’s largest amount and request count', () => {
    expect(validatePlanForm({ ...valid, amount: '1000000', numberOfRequest: '1000000000' }).input).toEqual({
      name: 'Growth',
      amount: 1_000_000,
      numberOfRequest: 1_000_000_000,
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

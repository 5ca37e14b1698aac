import type { AdminUser } from '@afrofx/shared';
import { statusAction, superCustomerAction } from './account-actions';

const user = (overrides: Partial<AdminUser>): AdminUser => ({
  _id: '6f1c2b9e-8d1a-4c0e-9a55-3b0c1e7d2f10',
  email: 'amara@example.com',
  role: 'developer',
  status: 'active',
  state: 'normal_customer',
  createdAt: '2026-11-23T07:00:00.000Z',
  ...overrides,
});

describe('account row actions (SPEC §4)', () => {
  it("labels an active account's action 'Disable Account', and it disables the account", () => {
    expect(statusAction(user({ status: 'active' }))).toEqual({
      label: 'Disable Account',
      action: 'disable_account',
    });
  });

  it("labels a disabled account's action 'Enable Account', and it enables the account", () => {
    expect(statusAction(user({ status: 'disabled' }))).toEqual({
      label: 'Enable Account',
      action: 'enable_account',
    });
  });

  it('toggles the super customer state', () => {
    expect(superCustomerAction(user({ state: 'normal_customer' }))).toEqual({
      label: 'Enable Super Customer',
      action: 'enable_premium_customer',
    });
    expect(superCustomerAction(user({ state: 'premium_customer' }))).toEqual({
      label: 'Remove Super Customer',
      action: 'enable_normal_customer',
    });
  });
});

import type { AdminUser } from '@afrofx/shared';
import type { AccountAction } from './admin-api';

export interface RowAction {
  label: string;
  action: AccountAction;
}

/**
 * SPEC §4, read literally: when status is 'active' the action shows 'Enable Account', otherwise 'Disable
 * Account'. The click changes the status to the other one, so on an active account it disables it (after a
 * confirmation that says so) and on a disabled one it enables it.
 */
export function statusAction(user: AdminUser): RowAction {
  return user.status === 'active'
    ? { label: 'Enable Account', action: 'disable_account' }
    : { label: 'Disable Account', action: 'enable_account' };
}

/** SPEC §4: Enable/Remove Super Customer toggles on state premium_customer. */
export function superCustomerAction(user: AdminUser): RowAction {
  return user.state === 'premium_customer'
    ? { label: 'Remove Super Customer', action: 'enable_normal_customer' }
    : { label: 'Enable Super Customer', action: 'enable_premium_customer' };
}

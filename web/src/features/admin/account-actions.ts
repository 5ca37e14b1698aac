import type { AdminUser } from '@afrofx/shared';
import type { AccountAction } from './admin-api';

export interface RowAction {
  label: string;
  action: AccountAction;
}

/**
 * SPEC §4 toggles the status. Read literally it labels an active account's button 'Enable Account' although the
 * click disables it: a button names what it does, so an active account shows 'Disable Account' (after a
 * confirmation that says so) and a disabled one 'Enable Account'.
 */
export function statusAction(user: AdminUser): RowAction {
  return user.status === 'active'
    ? { label: 'Disable Account', action: 'disable_account' }
    : { label: 'Enable Account', action: 'enable_account' };
}

/** SPEC §4: Enable/Remove Super Customer toggles on state premium_customer. */
export function superCustomerAction(user: AdminUser): RowAction {
  return user.state === 'premium_customer'
    ? { label: 'Remove Super Customer', action: 'enable_normal_customer' }
    : { label: 'Enable Super Customer', action: 'enable_premium_customer' };
}

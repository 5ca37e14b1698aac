import { Type, type Static } from '@sinclair/typebox';
import { EmailAddress, Password, StringEnum } from './common';

/** admin/lift_sign_in_lock: the address whose sign-in slow-down an admin lifts. */
export const SignInLockInput = Type.Object({ email: EmailAddress }, { additionalProperties: false });
export type SignInLockInput = Static<typeof SignInLockInput>;

export const Credentials = Type.Object(
  { email: EmailAddress, password: Password },
  { additionalProperties: false },
);
export type Credentials = Static<typeof Credentials>;

export const AdminSession = Type.Object({
  token: Type.String(),
  user: Type.Object({ _id: Type.String(), email: Type.String() }),
});
export type AdminSession = Static<typeof AdminSession>;

export const ACCOUNT_ROLES = ['admin', 'developer'] as const;
export const ACCOUNT_STATUSES = ['active', 'disabled'] as const;
export const ACCOUNT_STATES = ['normal_customer', 'premium_customer'] as const;

/** SPEC §3 admin user, with its role: the Users screen lists developers too, since its toggles act on them. */
export const AdminUser = Type.Object({
  _id: Type.String(),
  email: Type.String(),
  role: StringEnum(ACCOUNT_ROLES),
  status: StringEnum(ACCOUNT_STATUSES),
  state: StringEnum(ACCOUNT_STATES),
  createdAt: Type.String({ format: 'date-time' }),
});
export type AdminUser = Static<typeof AdminUser>;

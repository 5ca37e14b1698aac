import { Type, type Static } from '@sinclair/typebox';
import { EmailAddress, Password } from './common';

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

import { Type, type Static } from '@sinclair/typebox';
import { MAIL_TYPES } from '../constants';
import { EmailAddress, PageNumber, StringEnum } from './common';

export const MailTypeSchema = StringEnum(MAIL_TYPES, { default: 'mailing_list' });

export const Subscriber = Type.Object({
  _id: Type.String(),
  email: Type.String(),
  isActivated: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
});
export type Subscriber = Static<typeof Subscriber>;

export const SubscribeInput = Type.Object({ email: EmailAddress }, { additionalProperties: false });
export type SubscribeInput = Static<typeof SubscribeInput>;

export const MailingListQuery = Type.Object(
  {
    mail_type: Type.Optional(MailTypeSchema),
    page: Type.Optional(PageNumber),
  },
  { additionalProperties: false },
);
export type MailingListQuery = Static<typeof MailingListQuery>;

/** The token of a rates mail's unsubscribe link: a subscriber id and its signature. */
export const UnsubscribeParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) });
export type UnsubscribeParams = Static<typeof UnsubscribeParams>;

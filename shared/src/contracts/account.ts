import { Type, type Static } from '@sinclair/typebox';
import { PAYMENT_CURRENCIES, SUBSCRIPTION_STATUSES } from '../constants';
import { EmailAddress, Id, MAX_PAGE, Password, StringEnum, Text } from './common';

const Name = Text({ maxLength: 100 });
/** New passwords (OWASP ASVS 2.1): at least 10 characters, short enough to hash cheaply. */
export const NewPassword = Type.String({ minLength: 10, maxLength: 128 });
/** What a new password must be, as the forms show it; the server also refuses easily guessed ones. */
export const PASSWORD_RULE =
  'At least 10 characters and hard to guess: three or four unrelated words work well.';
/** Link tokens as the server makes them (base64url). */
const LinkToken = Type.String({ minLength: 10, maxLength: 200, pattern: '^[A-Za-z0-9_-]+$' });

export const SignupInput = Type.Object(
  { email: EmailAddress, password: NewPassword, first_name: Name, last_name: Name },
  { additionalProperties: false },
);
export type SignupInput = Static<typeof SignupInput>;

export const DeveloperUser = Type.Object({
  _id: Type.String(),
  email: Type.String(),
  first_name: Type.String(),
  last_name: Type.String(),
});
export type DeveloperUser = Static<typeof DeveloperUser>;

export const DeveloperSession = Type.Object({ token: Type.String(), user: DeveloperUser });
export type DeveloperSession = Static<typeof DeveloperSession>;

export const SigninInput = Type.Object(
  { email: EmailAddress, password: Password },
  { additionalProperties: false },
);
export type SigninInput = Static<typeof SigninInput>;

export const TokenParams = Type.Object({ token: LinkToken });
export type TokenParams = Static<typeof TokenParams>;

export const RequestResetInput = Type.Object({ email: EmailAddress }, { additionalProperties: false });
export type RequestResetInput = Static<typeof RequestResetInput>;

export const ResetPasswordInput = Type.Object(
  { code: LinkToken, password: NewPassword },
  { additionalProperties: false },
);
export type ResetPasswordInput = Static<typeof ResetPasswordInput>;

export const ChangePasswordInput = Type.Object(
  { oldPassword: Password, newPassword: NewPassword },
  { additionalProperties: false },
);
export type ChangePasswordInput = Static<typeof ChangePasswordInput>;

export const AppParams = Type.Object({ appId: Id });
export type AppParams = Static<typeof AppParams>;

export const CreateAppInput = Type.Object({ name: Text({ maxLength: 80 }) }, { additionalProperties: false });
export type CreateAppInput = Static<typeof CreateAppInput>;

export const App = Type.Object({
  _id: Type.String(),
  name: Type.String(),
  user: Type.Object({ first_name: Type.String(), last_name: Type.String(), email: Type.String() }),
  createdAt: Type.String({ format: 'date-time' }),
});
export type App = Static<typeof App>;

export const ApiKey = Type.Object({
  public_key: Type.String(),
  private_key: Type.String({
    description: 'Whole only in the answer to generate_api_key; masked everywhere else',
  }),
  createdAt: Type.String({ format: 'date-time' }),
});
export type ApiKey = Static<typeof ApiKey>;

export const RequestAnalytics = Type.Object({
  todayCount: Type.Integer(),
  weekCount: Type.Integer(),
  monthCount: Type.Integer(),
  daily: Type.Array(Type.Object({ day: Type.String({ format: 'date' }), count: Type.Integer() })),
});
export type RequestAnalytics = Static<typeof RequestAnalytics>;

export const RequestLogEntry = Type.Object({
  _id: Type.String(),
  host: Type.String(),
  agent: Type.String(),
  ipAddress: Type.String(),
  originalUrl: Type.String(),
  status: Type.Integer(),
  latency: Type.Number({ description: 'Milliseconds' }),
  count: Type.Integer({
    description:
      'Requests the row stands for: 1, or the number of uncounted answers (refusals, 304) of one flush',
  }),
  createdAt: Type.String({ format: 'date-time' }),
});
export type RequestLogEntry = Static<typeof RequestLogEntry>;

/** An opaque request-log position: the time and id of the last row of a page. */
export const RequestLogCursor = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: '^[A-Za-z0-9_-]+$',
  description: "pagination.cursor of the previous page; the page starts after that page's last row",
});

/**
 * The request log pages by position (cursor), which costs the same at any depth; page numbers stay for the
 * SPEC's `?page={n}` and read by offset. One or the other.
 */
export const RequestLogQuery = Type.Object(
  // No default page, so that a cursor alone is not taken for both.
  {
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE })),
    cursor: Type.Optional(RequestLogCursor),
  },
  { additionalProperties: false },
);
export type RequestLogQuery = Static<typeof RequestLogQuery>;

export const RequestLogPage = Type.Object({
  data: Type.Array(RequestLogEntry),
  message: Type.String(),
  pagination: Type.Object({
    next: Type.Union([Type.Integer(), Type.Null()], {
      description: 'The next page number when paging by number; null at the end and when paging by cursor',
    }),
    count: Type.Integer({ description: 'Rows in the log, all pages together' }),
    cursor: Type.Union([RequestLogCursor, Type.Null()], {
      description: 'Pass as cursor for the rows after this page; null at the end',
    }),
  }),
});
export type RequestLogPage = Static<typeof RequestLogPage>;

export const Transaction = Type.Object({
  _id: Type.String(),
  currency: StringEnum(PAYMENT_CURRENCIES),
  amount: Type.Number(),
  plan: Type.Union([Type.Object({ _id: Type.String(), name: Type.String() }), Type.Null()]),
  app: Type.Object({ _id: Type.String(), name: Type.String() }),
  user: Type.Object({ first_name: Type.String(), last_name: Type.String(), email: Type.String() }),
  transactionRefrence: Type.String(),
  transactionStatus: Type.String(),
  confirmedStatus: Type.Boolean(),
  isUpcoming: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
});
export type Transaction = Static<typeof Transaction>;

export const Subscription = Type.Object({
  _id: Type.String(),
  plan: Type.Object({ _id: Type.Union([Type.String(), Type.Null()]), name: Type.String() }),
  app: Type.Object({ _id: Type.String(), name: Type.String() }),
  status: StringEnum(SUBSCRIPTION_STATUSES),
  processedRequest: Type.Integer({ description: "This month's counted requests" }),
  limit: Type.Integer({ description: 'Requests allowed per month' }),
  amount: Type.Union([Type.Number(), Type.Null()], {
    description: 'Dollars a term as sold (0: a free plan); an upgrade credits its unused part',
  }),
  startsAt: Type.String({ format: 'date-time' }),
  expireAt: Type.String({ format: 'date-time' }),
  lastIncrement: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
});
export type Subscription = Static<typeof Subscription>;

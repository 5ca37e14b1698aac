import { Type, type Static, type TSchema } from '@sinclair/typebox';

/** A string enum as `{ type: 'string', enum }`: readable validation messages and a clean OpenAPI document. */
export const StringEnum = <T extends readonly string[]>(
  values: T,
  options: { description?: string; default?: T[number]; examples?: Array<T[number]> } = {},
) => Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });

/**
 * Database ids are UUIDs; anything else is refused before it reaches a query. The pattern narrows the `uuid` format,
 * which also takes a `urn:uuid:` prefix that PostgreSQL refuses.
 */
export const ID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
export const Id = Type.String({ format: 'uuid', pattern: ID_PATTERN });

/**
 * Text a person types (names): bounded, free of control characters, and not blank. PostgreSQL refuses a NUL byte in
 * text, and the others have no place in a name shown in mails and lists; a name of spaces only would be stored empty
 * (the services store names trimmed) and list as a blank plan, feature or app.
 */
export const Text = (options: { minLength?: number; maxLength: number }) =>
  Type.String({
    minLength: 1,
    ...options,
    pattern: '^[^\\u0000-\\u001F\\u007F]*$',
    not: { pattern: '^\\s*$' },
  });

/** Days of 1900 to 2100 only; year 0000 or 9999 is a typo, and PostgreSQL refuses some such dates. */
export const FIRST_CALENDAR_DAY = '1900-01-01';
export const LAST_CALENDAR_DAY = '2100-12-31';
export const CALENDAR_DATE_PATTERN = '^(19\\d{2}|20\\d{2}|2100)-\\d{2}-\\d{2}$';
export const CalendarDate = Type.String({
  format: 'date',
  pattern: CALENDAR_DATE_PATTERN,
  description: `YYYY-MM-DD, from ${FIRST_CALENDAR_DAY} to ${LAST_CALENDAR_DAY}`,
  examples: ['2026-11-01'],
});

/** Pages start at 1; the bound keeps the row offset far inside what PostgreSQL accepts. */
export const MAX_PAGE = 100_000;
export const PageNumber = Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1 });

export const Pagination = Type.Object({
  next: Type.Union([Type.Integer(), Type.Null()]),
  count: Type.Integer(),
});
export type Pagination = Static<typeof Pagination>;

export const PageQuery = Type.Object({ page: Type.Optional(PageNumber) }, { additionalProperties: false });
export type PageQuery = Static<typeof PageQuery>;

export const IdParams = Type.Object({ id: Id });
export type IdParams = Static<typeof IdParams>;

/** DESIGN §4: every success answer is `{ data, message, pagination? }`. */
export const Envelope = <T extends TSchema>(data: T) => Type.Object({ data, message: Type.String() });

export const PagedEnvelope = <T extends TSchema>(item: T) =>
  Type.Object({ data: Type.Array(item), message: Type.String(), pagination: Pagination });

export const MessageOnly = Type.Object({ data: Type.Null(), message: Type.String() });

export const ErrorBody = Type.Object(
  {
    message: Type.String({
      maxLength: 1000,
      description: 'What went wrong; a 400 names the parameter at fault',
    }),
    statusCode: Type.Integer({ minimum: 400, maximum: 599 }),
    error: Type.String({ maxLength: 100, description: 'The HTTP reason phrase' }),
  },
  {
    examples: [
      {
        message: 'querystring/market must be equal to one of the allowed values',
        statusCode: 400,
        error: 'Bad Request',
      },
    ],
  },
);
export type ErrorBody = Static<typeof ErrorBody>;

export interface ApiEnvelope<T> {
  data: T;
  message: string;
  pagination?: Pagination;
}
export interface PagedResponse<T> {
  data: T[];
  message: string;
  pagination: Pagination;
}

export const EmailAddress = Type.String({ format: 'email', maxLength: 254, minLength: 3 });
export const Password = Type.String({ minLength: 1, maxLength: 512 });

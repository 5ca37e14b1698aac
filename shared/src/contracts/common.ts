import { Type, type Static, type TSchema } from '@sinclair/typebox';

/** A string enum as `{ type: 'string', enum }`: readable validation messages and a clean OpenAPI document. */
export const StringEnum = <T extends readonly string[]>(
  values: T,
  options: { description?: string; default?: T[number] } = {},
) => Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });

/** Database ids are UUIDs; anything else is refused before it reaches a query. */
export const Id = Type.String({ format: 'uuid' });

export const Pagination = Type.Object({
  next: Type.Union([Type.Integer(), Type.Null()]),
  count: Type.Integer(),
});
export type Pagination = Static<typeof Pagination>;

export const PageQuery = Type.Object(
  { page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })) },
  { additionalProperties: false },
);
export type PageQuery = Static<typeof PageQuery>;

export const IdParams = Type.Object({ id: Id });
export type IdParams = Static<typeof IdParams>;

/** DESIGN §4: every success answer is `{ data, message, pagination? }`. */
export const Envelope = <T extends TSchema>(data: T) => Type.Object({ data, message: Type.String() });

export const PagedEnvelope = <T extends TSchema>(item: T) =>
  Type.Object({ data: Type.Array(item), message: Type.String(), pagination: Pagination });

export const MessageOnly = Type.Object({ data: Type.Null(), message: Type.String() });

export const ErrorBody = Type.Object({
  message: Type.String(),
  statusCode: Type.Integer(),
  error: Type.String(),
});
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

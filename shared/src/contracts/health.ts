import { Type, type Static } from '@sinclair/typebox';

const Check = Type.Object({
  ok: Type.Boolean(),
  driver: Type.String(),
  detail: Type.Optional(Type.String()),
});

/** The paid API's request-log buffer in this process (absent where the paid API is not served). */
const RequestLogState = Type.Object({
  ok: Type.Boolean(),
  buffered: Type.Integer({ description: 'Entries waiting to be written' }),
  lastFlushAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  failingSince: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'Since when writes have been failing; null while they succeed',
  }),
  dropped: Type.Integer({
    description: 'Entries dropped because the buffer overflowed during a long outage',
  }),
});

export const Health = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
  database: Check,
  queue: Check,
  requestLog: Type.Optional(RequestLogState),
});
export type Health = Static<typeof Health>;

import { Type, type Static } from '@sinclair/typebox';

const Check = Type.Object({
  ok: Type.Boolean(),
  driver: Type.String(),
  detail: Type.Optional(Type.String()),
});

export const Health = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
  database: Check,
  queue: Check,
});
export type Health = Static<typeof Health>;

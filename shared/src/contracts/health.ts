import { Type, type Static } from '@sinclair/typebox';
import { MarketSchema } from './rates';

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

/** GET /v1/status: what the public status page shows. */
export const Status = Type.Object(
  {
    status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')], {
      description: 'degraded when any service check fails',
    }),
    checkedAt: Type.String({
      format: 'date-time',
      description: 'When the checks ran (answers are reused for a few seconds)',
    }),
    markets: Type.Array(
      Type.Object({
        market: MarketSchema,
        label: Type.String({ examples: ['Cash'] }),
        updatedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
          description:
            'The newest updatedAt among the latest rates of the market; null before its first rate',
        }),
        ageSeconds: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
          description: 'Seconds since updatedAt',
        }),
        stale: Type.Boolean({
          description: 'true when updatedAt is older than STALE_AFTER_HOURS, or missing',
        }),
      }),
    ),
    services: Type.Object({
      api: Check,
      database: Check,
      queue: Check,
      mail: Check,
    }),
  },
  {
    examples: [
      {
        status: 'degraded',
        checkedAt: '2026-11-23T09:00:00.000Z',
        markets: [
          {
            market: 'black_market_cash',
            label: 'Cash',
            updatedAt: '2026-11-23T08:05:00.000Z',
            ageSeconds: 3300,
            stale: false,
          },
          {
            market: 'bank',
            label: 'Bank',
            updatedAt: '2026-11-21T08:00:00.000Z',
            ageSeconds: 176400,
            stale: true,
          },
          {
            market: 'black_market_transfer',
            label: 'Transfer',
            updatedAt: null,
            ageSeconds: null,
            stale: true,
          },
        ],
        services: {
          api: { ok: true, driver: 'fastify' },
          database: { ok: true, driver: 'postgres' },
          queue: { ok: true, driver: 'bullmq' },
          mail: { ok: false, driver: 'smtp', detail: 'no answer within 2000 ms' },
        },
      },
    ],
  },
);
export type Status = Static<typeof Status>;

// Webhooks: endpoints an app registers to be told when a rate is entered or crosses a level.
import { Type, type Static } from '@sinclair/typebox';
import { Id, StringEnum } from './common';
import { AssetSchema, BaseSchema, MarketSchema } from './rates';

export const WEBHOOK_EVENTS = ['rate.updated', 'rate.threshold', 'rate.corrected'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** What a delivery can carry: the subscribed events, and the event the "Send test event" button sends. */
export const WEBHOOK_DELIVERY_EVENTS = [...WEBHOOK_EVENTS, 'webhook.test'] as const;
export type WebhookDeliveryEvent = (typeof WEBHOOK_DELIVERY_EVENTS)[number];

export const WEBHOOK_SIDES = ['buy', 'sell'] as const;
export const WEBHOOK_DELIVERY_STATES = ['pending', 'sending', 'succeeded', 'failed'] as const;
export type WebhookDeliveryState = (typeof WEBHOOK_DELIVERY_STATES)[number];
/** parked: repeated attempts in a row failed; deliveries are kept and wait until the endpoint is resumed. */
export const WEBHOOK_ENDPOINT_STATES = ['active', 'parked'] as const;
export type WebhookEndpointState = (typeof WEBHOOK_ENDPOINT_STATES)[number];

/** Bounds that keep one app's fan-out small (each rate entry makes at most this many deliveries per app). */
export const MAX_WEBHOOK_ENDPOINTS = 10;
export const MAX_WEBHOOK_THRESHOLDS = 20;
/** The header every delivery carries: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`. */
export const WEBHOOK_SIGNATURE_HEADER = 'AfroFX-Signature';

const EventSchema = StringEnum(WEBHOOK_EVENTS, {
  description: 'rate.updated: a new rate of a chosen pair and market; rate.threshold: a pair crossed a level',
});

export const WebhookPair = Type.Object(
  { base: BaseSchema, asset: AssetSchema },
  { additionalProperties: false },
);
export type WebhookPair = Static<typeof WebhookPair>;

const Level = Type.Number({
  exclusiveMinimum: 0,
  maximum: 1e9,
  description: 'The level, in the base currency',
});

export const WebhookThresholdInput = Type.Object(
  {
    market: MarketSchema,
    base: BaseSchema,
    asset: AssetSchema,
    side: StringEnum(WEBHOOK_SIDES, { description: 'Which price is compared with the level' }),
    level: Level,
  },
  { additionalProperties: false },
);
export type WebhookThresholdInput = Static<typeof WebhookThresholdInput>;

export const CreateWebhookInput = Type.Object(
  {
    url: Type.String({
      format: 'uri',
      maxLength: 2048,
      pattern: '^https?://',
      description: 'Where deliveries are POSTed (http or https; private addresses are refused)',
    }),
    events: Type.Array(EventSchema, { minItems: 1, uniqueItems: true }),
    markets: Type.Optional(
      Type.Array(MarketSchema, {
        uniqueItems: true,
        description: 'rate.updated: markets to be told about; empty or absent means every market',
      }),
    ),
    pairs: Type.Optional(
      Type.Array(WebhookPair, {
        maxItems: 16,
        uniqueItems: true,
        description: 'rate.updated: base/asset pairs to be told about; empty or absent means every pair',
      }),
    ),
    thresholds: Type.Optional(
      Type.Array(WebhookThresholdInput, {
        maxItems: MAX_WEBHOOK_THRESHOLDS,
        uniqueItems: true,
        description: 'rate.threshold: the levels watched; each fires once per crossing, up or down',
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        url: 'https://example.com/afrofx/webhooks',
        events: ['rate.updated', 'rate.threshold'],
        markets: ['black_market_cash'],
        pairs: [{ base: 'naira', asset: 'dollar' }],
        thresholds: [
          { market: 'black_market_cash', base: 'naira', asset: 'dollar', side: 'sell', level: 1600 },
        ],
      },
    ],
  },
);
export type CreateWebhookInput = Static<typeof CreateWebhookInput>;

export const WebhookThreshold = Type.Object({
  _id: Type.String(),
  market: MarketSchema,
  base: BaseSchema,
  asset: AssetSchema,
  side: StringEnum(WEBHOOK_SIDES),
  level: Type.Number(),
  lastPosition: Type.Union([StringEnum(['above', 'below'] as const), Type.Null()], {
    description: 'Where the price last stood against the level; null until a rate of the pair is known',
  }),
});
export type WebhookThreshold = Static<typeof WebhookThreshold>;

const endpointFields = {
  _id: Type.String(),
  url: Type.String(),
  events: Type.Array(EventSchema),
  markets: Type.Array(MarketSchema),
  pairs: Type.Array(WebhookPair),
  thresholds: Type.Array(WebhookThreshold),
  secretHint: Type.String({ description: 'The signing secret, masked but for its last four characters' }),
  createdAt: Type.String({ format: 'date-time' }),
  secretRotatedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  state: StringEnum(WEBHOOK_ENDPOINT_STATES, {
    description:
      'parked: deliveries failed repeatedly in a row, so sending stopped; new deliveries are kept and go out ' +
      'once the endpoint is resumed (or a trial attempt after the cool-down succeeds)',
  }),
  parkedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  parkedReason: Type.Union([Type.String(), Type.Null()], { description: 'Why the endpoint was parked' }),
  retryAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'When a parked endpoint gets its next trial attempt',
  }),
};

const endpointExample = {
  _id: '5b0c3c1e-8f4b-4a8e-9d7e-1f2a3b4c5d6e',
  url: 'https://example.com/afrofx/webhooks',
  events: ['rate.updated', 'rate.threshold'],
  markets: ['black_market_cash'],
  pairs: [{ base: 'naira', asset: 'dollar' }],
  thresholds: [
    {
      _id: '0e6f1b7a-3c2d-4e5f-8a9b-0c1d2e3f4a5b',
      market: 'black_market_cash',
      base: 'naira',
      asset: 'dollar',
      side: 'sell',
      level: 1600,
      lastPosition: 'below',
    },
  ],
  secretHint: 'afxsig_••••••••••••••••••••••••Qm3x',
  createdAt: '2026-11-23T09:30:00.000Z',
  secretRotatedAt: null,
  state: 'active',
  parkedAt: null,
  parkedReason: null,
  retryAt: null,
};

export const WebhookEndpoint = Type.Object(endpointFields, { examples: [endpointExample] });
export type WebhookEndpoint = Static<typeof WebhookEndpoint>;

export const WebhookEndpointWithSecret = Type.Object(
  {
    ...endpointFields,
    secret: Type.String({ description: 'The signing secret, shown only in this answer' }),
  },
  { examples: [{ ...endpointExample, secret: 'afxsig_3q2+7w…Qm3x' }] },
);
export type WebhookEndpointWithSecret = Static<typeof WebhookEndpointWithSecret>;

export const WebhookParams = Type.Object({ appId: Id, endpointId: Id });
export type WebhookParams = Static<typeof WebhookParams>;

export const WebhookAttempt = Type.Object({
  attempt: Type.Integer(),
  responseCode: Type.Union([Type.Integer(), Type.Null()], { description: 'Null when no answer came' }),
  latencyMs: Type.Number(),
  error: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
});
export type WebhookAttempt = Static<typeof WebhookAttempt>;

export const WebhookDelivery = Type.Object(
  {
    _id: Type.String({ description: 'Also the event id: the AfroFX-Delivery header and the body’s id' }),
    event: StringEnum(WEBHOOK_DELIVERY_EVENTS),
    state: StringEnum(WEBHOOK_DELIVERY_STATES),
    attempts: Type.Integer(),
    responseCode: Type.Union([Type.Integer(), Type.Null()], { description: 'Of the last attempt' }),
    latencyMs: Type.Union([Type.Number(), Type.Null()], { description: 'Of the last attempt' }),
    error: Type.Union([Type.String(), Type.Null()], { description: 'Why the last attempt failed' }),
    nextAttemptAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    deliveredAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    createdAt: Type.String({ format: 'date-time' }),
    attemptLog: Type.Array(WebhookAttempt),
  },
  {
    examples: [
      {
        _id: '9d3e2c1b-0a9f-4e8d-7c6b-5a4f3e2d1c0b',
        event: 'rate.threshold',
        state: 'succeeded',
        attempts: 2,
        responseCode: 200,
        latencyMs: 84.2,
        error: null,
        nextAttemptAt: null,
        deliveredAt: '2026-11-23T09:31:02.000Z',
        createdAt: '2026-11-23T09:30:30.000Z',
        attemptLog: [
          {
            attempt: 1,
            responseCode: 500,
            latencyMs: 91.7,
            error: 'The endpoint answered 500',
            createdAt: '2026-11-23T09:30:30.000Z',
          },
          {
            attempt: 2,
            responseCode: 200,
            latencyMs: 84.2,
            error: null,
            createdAt: '2026-11-23T09:31:02.000Z',
          },
        ],
      },
    ],
  },
);
export type WebhookDelivery = Static<typeof WebhookDelivery>;

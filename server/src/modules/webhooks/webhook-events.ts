// The deliveries an endpoint receives, as the OpenAPI 3.1 `webhooks` section describes them: generated clients and
// the documentation page type a receiver's body from these.
import { Type, type TSchema } from '@sinclair/typebox';
import { Quote, RateRevision, WEBHOOK_SIGNATURE_HEADER, WebhookThreshold } from '@afrofx/shared';

const delivery = (type: string, data: TSchema, example: unknown) =>
  Type.Object(
    {
      id: Type.String({
        format: 'uuid',
        maxLength: 36,
        description: 'The delivery id: the same on every retry of a delivery, so deduplicate on it.',
      }),
      type: Type.Literal(type),
      createdAt: Type.String({ format: 'date-time', maxLength: 30 }),
      data,
    },
    {
      examples: [
        {
          id: '0b8c6a1e-3f7d-4c55-9d0e-2a6b1c9e7f10',
          type,
          createdAt: '2026-11-24T09:00:00.000Z',
          data: example,
        },
      ],
    },
  );

/** The rate as GET /v1/rates answers it, without the age (a delivery is about the moment it was entered). */
const Rate = Type.Omit(Quote, ['ageSeconds', 'stale']);

const rateExample = {
  _id: '5f0c1b7e-8f7a-4a52-8a4c-1f2d3e4b5a69',
  market: 'bank',
  base: 'naira',
  asset: 'dollar',
  buy: 1500.5,
  sell: 1510.25,
  createdAt: '2026-11-24T09:00:00.000Z',
  updatedAt: '2026-11-24T09:00:00.000Z',
  source: 'desk',
  publishedAt: '2026-11-24T09:00:00.000Z',
  publicationId: '7a1c2e3f-4b5d-4e6f-8a9b-0c1d2e3f4a5b',
  revision: 0,
  mid: 1505.375,
  spread: 9.75,
  spreadPct: 0.6477,
  change: 5.375,
  changePct: 0.3583,
};

/** The threshold that fired, as the endpoint lists it, with the crossing. */
const Threshold = Type.Composite([
  WebhookThreshold,
  Type.Object({
    direction: Type.Union([Type.Literal('up'), Type.Literal('down')]),
    price: Type.Number({ description: 'The price that crossed the level' }),
  }),
]);

const EVENTS: Record<string, { summary: string; description: string; schema: TSchema }> = {
  'rate.updated': {
    summary: 'A rate was entered',
    description:
      "Sent once per publication that has rates of the markets and pairs the endpoint chose: `rates` holds every one of them (a morning's board is one delivery), `rate` the first.",
    schema: delivery(
      'rate.updated',
      Type.Object({
        rate: Rate,
        rates: Type.Array(Rate),
        publication: Type.Object({
          id: Type.String({ format: 'uuid' }),
          publishedAt: Type.String({ format: 'date-time' }),
        }),
      }),
      {
        rate: rateExample,
        rates: [rateExample],
        publication: { id: '7a1c2e3f-4b5d-4e6f-8a9b-0c1d2e3f4a5b', publishedAt: '2026-11-24T09:00:00.000Z' },
      },
    ),
  },
  'rate.corrected': {
    summary: 'A published rate was corrected',
    description:
      'Sent when an admin corrects a published rate of a market and pair the endpoint chose: `rate` is the record as reads now serve it, `revision` both values and the reason.',
    schema: delivery('rate.corrected', Type.Object({ rate: Rate, revision: RateRevision }), {
      rate: { ...rateExample, revision: 1 },
      revision: {
        _id: '3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f',
        rateId: rateExample._id,
        revision: 1,
        kind: 'correction',
        market: 'bank',
        base: 'naira',
        asset: 'dollar',
        old: { buy: 150.05, sell: 1510.25 },
        new: { buy: 1500.5, sell: 1510.25 },
        reason: 'A misplaced digit in the buy',
        publishedAt: '2026-11-24T09:00:00.000Z',
        revisedAt: '2026-11-24T09:05:00.000Z',
      },
    }),
  },
  'rate.threshold': {
    summary: 'A rate crossed a watched level',
    description: 'Sent once per crossing, up or down, of a level the endpoint watches.',
    schema: delivery('rate.threshold', Type.Object({ rate: Rate, threshold: Threshold }), {
      rate: rateExample,
      threshold: {
        _id: '9d1f6c2a-0b7e-4f3a-8c55-6e2d1a7b9c40',
        lastPosition: 'above',
        market: 'bank',
        base: 'naira',
        asset: 'dollar',
        side: 'buy',
        level: 1500,
        direction: 'up',
        price: 1500.5,
      },
    }),
  },
  'webhook.test': {
    summary: 'A test event',
    description: 'Sent by "Send test event" in the console, or by sendWebhookTestEvent.',
    schema: delivery('webhook.test', Type.Object({ message: Type.String({ maxLength: 200 }) }), {
      message: 'A test event from AfroFX: your endpoint is reachable.',
    }),
  },
};

/** The OpenAPI 3.1 `webhooks` object: one POST per event, signed with the AfroFX-Signature header. */
export function webhookEventsDocument() {
  return Object.fromEntries(
    Object.entries(EVENTS).map(([event, { summary, description, schema }]) => [
      event,
      {
        post: {
          operationId: `on${event.replace(/(^|\.)(\w)/g, (_match, _dot, letter: string) => letter.toUpperCase())}`,
          summary,
          description,
          security: [],
          parameters: [
            {
              name: WEBHOOK_SIGNATURE_HEADER,
              in: 'header',
              required: true,
              description:
                't=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body"> (v1 twice during a secret rotation)',
              schema: { type: 'string', maxLength: 300, pattern: '^t=\\d+(,v1=[0-9a-f]{64})+$' },
            },
          ],
          requestBody: { required: true, content: { 'application/json': { schema } } },
          responses: {
            '200': { description: 'A 2xx answer in time marks the delivery succeeded.' },
            '4XX': { description: 'Retried with backoff, as is a 5xx or no answer in time.' },
          },
        },
      },
    ]),
  );
}

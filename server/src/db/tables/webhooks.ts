// Webhooks: the endpoints, their thresholds, and each delivery with its attempts.
import { sql } from 'drizzle-orm';
import {
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  MARKETS,
  WEBHOOK_DELIVERY_STATES,
  WEBHOOK_ENDPOINT_STATES,
  WEBHOOK_SIDES,
  type WebhookDeliveryEvent,
  type WebhookEvent,
  type WebhookPair,
} from '@afrofx/shared';
import { marketEnum, assetEnum, baseEnum } from './enums';
import { createdAt, money } from './columns';
import { apps } from './accounts';

// Webhooks. The signing secret is kept whole: every delivery is signed with it. The API shows it
// only when it is made (creation, rotation).
export const webhookEndpointStateEnum = pgEnum('webhook_endpoint_state', WEBHOOK_ENDPOINT_STATES);

export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    appId: uuid('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    secret: text('secret').notNull(),
    events: jsonb('events').$type<WebhookEvent[]>().notNull(),
    // Empty: every market / every pair.
    markets: jsonb('markets').$type<Array<(typeof MARKETS)[number]>>().notNull().default([]),
    pairs: jsonb('pairs').$type<WebhookPair[]>().notNull().default([]),
    secretRotatedAt: timestamp('secret_rotated_at', { withTimezone: true, mode: 'date' }),
    // The secret a rotation replaced: deliveries are signed with it too until it expires (Stripe's overlap).
    previousSecret: text('previous_secret'),
    previousSecretExpiresAt: timestamp('previous_secret_expires_at', { withTimezone: true, mode: 'date' }),
    // One delivery in flight per endpoint. The delivery being sent and the lease of its sender: a sender
    // that died leaves a lease that passes, and the endpoint's next claim takes the delivery up again.
    sendingDeliveryId: uuid('sending_delivery_id'),
    sendingUntil: timestamp('sending_until', { withTimezone: true, mode: 'date' }),
    // The circuit: after repeated failed attempts in a row the endpoint is parked; its deliveries wait (kept) until
    // the developer resumes it or a trial attempt after the cool-down succeeds.
    state: webhookEndpointStateEnum('state').notNull().default('active'),
    consecutiveFailures: integer('consecutive_failures').notNull().default(0),
    parkedAt: timestamp('parked_at', { withTimezone: true, mode: 'date' }),
    parkedReason: text('parked_reason'),
    createdAt: createdAt(),
  },
  (t) => [index('webhook_endpoints_app_idx').on(t.appId, t.createdAt)],
);

export const webhookSideEnum = pgEnum('webhook_side', WEBHOOK_SIDES);
export const webhookPositionEnum = pgEnum('webhook_position', ['above', 'below']);

export const webhookThresholds = pgTable(
  'webhook_thresholds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    market: marketEnum('market').notNull(),
    base: baseEnum('base').notNull(),
    asset: assetEnum('asset').notNull(),
    side: webhookSideEnum('side').notNull(),
    level: money('level').notNull(),
    // The side of the level the price was on at the last rate entry: a crossing fires only when it changes.
    lastPosition: webhookPositionEnum('last_position'),
    createdAt: createdAt(),
  },
  (t) => [
    index('webhook_thresholds_pair_idx').on(t.market, t.base, t.asset),
    index('webhook_thresholds_endpoint_idx').on(t.endpointId),
  ],
);

// One row per event and endpoint, written in the same transaction as the rate that caused it (an outbox): a rate
// accepted while the queue is away keeps its deliveries, and the sweep job queues them when it is back.
export const webhookDeliveryStateEnum = pgEnum('webhook_delivery_state', WEBHOOK_DELIVERY_STATES);

export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey(),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    event: text('event').$type<WebhookDeliveryEvent>().notNull(),
    payload: jsonb('payload').notNull(),
    state: webhookDeliveryStateEnum('state').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    // A delivery being sent is leased: one whose sender died is taken up again once the lease has passed.
    lockedUntil: timestamp('locked_until', { withTimezone: true, mode: 'date' }),
    lastStatusCode: integer('last_status_code'),
    lastLatencyMs: real('last_latency_ms'),
    lastError: text('last_error'),
    deliveredAt: timestamp('delivered_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('webhook_deliveries_endpoint_created_idx').on(
      t.endpointId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('webhook_deliveries_unfinished_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.state} in ('pending', 'sending')`),
  ],
);

export const webhookDeliveryAttempts = pgTable(
  'webhook_delivery_attempts',
  {
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    statusCode: integer('status_code'),
    latencyMs: real('latency_ms').notNull(),
    error: text('error'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.deliveryId, t.attempt] })],
);

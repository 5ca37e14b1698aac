// Rate alerts for visitors, the Telegram chats that talk to the bot, and the alert confirmation mails.
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { marketEnum, assetEnum, baseEnum } from './enums';
import { createdAt, money } from './columns';
import { webhookSideEnum } from './webhooks';

// Rate alerts for visitors: a condition on one market, pair and side, owned by an e-mail address (double opt-in:
// live once confirmed) or a Telegram chat (live at once: the chat asked for it itself).
export const rateAlertConditionEnum = pgEnum('rate_alert_condition', ['above', 'below', 'move']);

export const rateAlerts = pgTable(
  'rate_alerts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email'),
    chatId: bigint('chat_id', { mode: 'number' }),
    market: marketEnum('market').notNull(),
    base: baseEnum('base').notNull(),
    asset: assetEnum('asset').notNull(),
    side: webhookSideEnum('side').notNull(),
    condition: rateAlertConditionEnum('condition').notNull(),
    // The threshold (above, below) or the percentage (move).
    level: money('level').notNull(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true, mode: 'date' }),
    paused: boolean('paused').notNull().default(false),
    // Fires once per crossing: a threshold alert that fired is disarmed until the figure goes back past the
    // threshold by the re-arm margin.
    armed: boolean('armed').notNull().default(true),
    // The figure and time of the last publication evaluated (moves compare with it); an older publication
    // evaluated late is not applied over a newer one.
    lastFigure: money('last_figure'),
    lastPublishedAt: timestamp('last_published_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    // The evaluation's one pass: the live alerts of the pairs a publication changed.
    index('rate_alerts_live_pair_idx')
      .on(t.market, t.base, t.asset)
      .where(sql`${t.confirmedAt} is not null and not ${t.paused}`),
    index('rate_alerts_email_idx').on(sql`lower(${t.email})`),
    index('rate_alerts_chat_idx').on(t.chatId),
  ],
);

// One row per alert and publication that fired it: the outbox of alert messages. A retried evaluation finds the row
// and adds none; a retried send finds sent_at and sends nothing.
export const rateAlertFirings = pgTable(
  'rate_alert_firings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    alertId: uuid('alert_id')
      .notNull()
      .references(() => rateAlerts.id, { onDelete: 'cascade' }),
    publishedAt: timestamp('published_at', { withTimezone: true, mode: 'date' }).notNull(),
    figure: money('figure').notNull(),
    previousFigure: money('previous_figure'),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('rate_alert_firings_alert_publication_uq').on(t.alertId, t.publishedAt)],
);

// Telegram chats that talk to the bot; daily: the chat gets one message per publication.
export const telegramChats = pgTable('telegram_chats', {
  chatId: bigint('chat_id', { mode: 'number' }).primaryKey(),
  daily: boolean('daily').notNull().default(false),
  createdAt: createdAt(),
});

// Confirmation mails sent to one address for alerts: the form cannot be used to bomb an inbox.
export const rateAlertConfirmations = pgTable(
  'rate_alert_confirmations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    sentAt: createdAt(),
  },
  (t) => [index('rate_alert_confirmations_email_idx').on(sql`lower(${t.email})`, t.sentAt)],
);

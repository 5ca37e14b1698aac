// Rate alerts of visitors (by e-mail, double opt-in) and of Telegram chats. This module owns rate_alerts,
// rate_alert_firings and rate_alert_confirmations.
import { and, count, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import { MAX_ALERTS_PER_OWNER, type RateAlert, type RateAlertInput } from '@afrofx/shared';
import type { Database } from '../../db/client';
import { rateAlertConfirmations, rateAlertFirings, rateAlerts } from '../../db/schema';
import { conflict, notFound } from '../../errors';
import type { Enqueue } from '../../queue/enqueue';
import type { PublishedRate } from '../../queue/job-types';
import { evaluateAlerts } from './alert-evaluation';

type AlertRow = typeof rateAlerts.$inferSelect;

/** Confirmation mails one address may be sent per window: the form cannot be used to fill an inbox. */
export const CONFIRMATIONS_PER_ADDRESS = 3;
const CONFIRMATION_WINDOW_MS = 60 * 60 * 1000;

const toAlert = (row: AlertRow): RateAlert => ({
  _id: row.id,
  market: row.market,
  base: row.base,
  asset: row.asset,
  side: row.side,
  condition: row.condition,
  level: row.level,
  confirmed: row.confirmedAt !== null,
  paused: row.paused,
  createdAt: row.createdAt.toISOString(),
});

const ofEmail = (email: string) => sql`lower(${rateAlerts.email}) = ${email.toLowerCase()}`;

const TOO_MANY = `An address or chat may hold at most ${MAX_ALERTS_PER_OWNER} alerts. Remove one to add another.`;

export type AlertCondition = Omit<RateAlertInput, 'email'>;

export function createAlertsService(db: Database, enqueue: Enqueue) {
  return {
    /** Stores an unconfirmed alert and mails its confirmation link (within the address's confirmation limit). */
    async createForEmail(input: RateAlertInput): Promise<void> {
      const email = input.email.trim().toLowerCase();
      const [held] = await db.select({ value: count() }).from(rateAlerts).where(ofEmail(email));
      if ((held?.value ?? 0) >= MAX_ALERTS_PER_OWNER) throw conflict(TOO_MANY);
      const [row] = await db
        .insert(rateAlerts)
        .values({ ...input, email })
        .returning({ id: rateAlerts.id });
      const [recent] = await db
        .select({ value: count() })
        .from(rateAlertConfirmations)
        .where(
          and(
            sql`lower(${rateAlertConfirmations.email}) = ${email}`,
            gt(rateAlertConfirmations.sentAt, new Date(Date.now() - CONFIRMATION_WINDOW_MS)),
          ),
        );
      // Past the limit the alert is kept unconfirmed; a later request inside the limit mails its own link.
      if ((recent?.value ?? 0) >= CONFIRMATIONS_PER_ADDRESS) return;
      await db.insert(rateAlertConfirmations).values({ email });
      await enqueue('rate-alert-confirmation-mail', { alertId: row!.id }, { jobId: row!.id });
    },

    /** The address of a confirmed alert, for its manage link. */
    async confirm(alertId: string): Promise<{ email: string; alreadyConfirmed: boolean }> {
      const [row] = await db.select().from(rateAlerts).where(eq(rateAlerts.id, alertId));
      if (!row?.email) throw notFound('This alert no longer exists. It may have been removed.');
      if (row.confirmedAt) return { email: row.email, alreadyConfirmed: true };
      await db.update(rateAlerts).set({ confirmedAt: new Date() }).where(eq(rateAlerts.id, alertId));
      return { email: row.email, alreadyConfirmed: false };
    },

    async findForConfirmation(alertId: string): Promise<{ email: string; alert: RateAlert } | undefined> {
      const [row] = await db
        .select()
        .from(rateAlerts)
        .where(and(eq(rateAlerts.id, alertId), isNull(rateAlerts.confirmedAt)));
      return row?.email ? { email: row.email, alert: toAlert(row) } : undefined;
    },

    async listForEmail(email: string): Promise<RateAlert[]> {
      const rows = await db
        .select()
        .from(rateAlerts)
        .where(ofEmail(email))
        .orderBy(desc(rateAlerts.createdAt));
      return rows.map(toAlert);
    },

    async setPaused(email: string, id: string, paused: boolean): Promise<void> {
      const updated = await db
        .update(rateAlerts)
        .set({ paused })
        .where(and(eq(rateAlerts.id, id), ofEmail(email)))
        .returning({ id: rateAlerts.id });
      if (updated.length === 0) throw notFound('Alert not found.');
    },

    async removeForEmail(email: string, id?: string): Promise<number> {
      const deleted = await db
        .delete(rateAlerts)
        .where(and(ofEmail(email), id ? eq(rateAlerts.id, id) : undefined))
        .returning({ id: rateAlerts.id });
      if (id && deleted.length === 0) throw notFound('Alert not found.');
      return deleted.length;
    },

    /** A chat's alert is live at once: the chat asked for it itself. */
    async createForChat(chatId: number, condition: AlertCondition): Promise<RateAlert> {
      const [held] = await db
        .select({ value: count() })
        .from(rateAlerts)
        .where(eq(rateAlerts.chatId, chatId));
      if ((held?.value ?? 0) >= MAX_ALERTS_PER_OWNER) throw conflict(TOO_MANY);
      const [row] = await db
        .insert(rateAlerts)
        .values({ ...condition, chatId, confirmedAt: new Date() })
        .returning();
      return toAlert(row!);
    },

    async listForChat(chatId: number): Promise<RateAlert[]> {
      const rows = await db
        .select()
        .from(rateAlerts)
        .where(eq(rateAlerts.chatId, chatId))
        .orderBy(rateAlerts.createdAt);
      return rows.map(toAlert);
    },

    async removeForChat(chatId: number, id?: string): Promise<number> {
      const deleted = await db
        .delete(rateAlerts)
        .where(and(eq(rateAlerts.chatId, chatId), id ? eq(rateAlerts.id, id) : undefined))
        .returning({ id: rateAlerts.id });
      return deleted.length;
    },

    /** Evaluates a publication and queues one message per firing: mail in the alerts lane, chats in Telegram's. */
    async evaluate(publication: { publishedAt: Date; rates: PublishedRate[] }): Promise<number> {
      const firings = await evaluateAlerts(db, publication);
      for (const firing of firings) {
        if (firing.email) await enqueue('rate-alert-mail', { firingId: firing.id }, { jobId: firing.id });
        else if (firing.chatId !== null)
          await enqueue(
            'telegram-message',
            { chatId: firing.chatId, text: '', firingId: firing.id },
            { jobId: firing.id },
          );
      }
      return firings.length;
    },

    /** A firing not yet sent, with its alert. */
    async pendingFiring(firingId: string) {
      const [row] = await db
        .select({ firing: rateAlertFirings, alert: rateAlerts })
        .from(rateAlertFirings)
        .innerJoin(rateAlerts, eq(rateAlerts.id, rateAlertFirings.alertId))
        .where(and(eq(rateAlertFirings.id, firingId), isNull(rateAlertFirings.sentAt)));
      return row;
    },

    /** Records a firing's message as sent at its commit point (as the rates mailing records its recipients). */
    async recordSent(firingId: string, release?: () => void): Promise<void> {
      await db.transaction(async (tx) => {
        await tx
          .update(rateAlertFirings)
          .set({ sentAt: new Date() })
          .where(eq(rateAlertFirings.id, firingId));
        if (release) setImmediate(release);
      });
    },

    async forgetSent(firingId: string): Promise<void> {
      await db.update(rateAlertFirings).set({ sentAt: null }).where(eq(rateAlertFirings.id, firingId));
    },
  };
}

export type AlertsService = ReturnType<typeof createAlertsService>;

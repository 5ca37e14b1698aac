import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Base, DailyMailPreferences, Market, MailType, Subscriber } from '@afrofx/shared';
import type { Database } from '../../db/client';
import { mailingListSubscribers, rateMailingRecipients, rateMailings } from '../../db/schema';
import { notFound } from '../../errors';
import type { Page } from '../../http';
import type { Enqueue } from '../../queue/enqueue';

type SubscriberRow = typeof mailingListSubscribers.$inferSelect;

const toSubscriber = (row: SubscriberRow): Subscriber => ({
  _id: row.id,
  email: row.email,
  isActivated: row.isActivated,
  createdAt: row.createdAt.toISOString(),
});

/** The daily-rates subscriber of an address. */
const ofAddress = (email: string) =>
  and(
    sql`lower(${mailingListSubscribers.email}) = ${email.toLowerCase()}`,
    eq(mailingListSubscribers.mailType, 'mailing_list'),
  );

export interface SubscribeResult {
  created: boolean;
  alreadyActive: boolean;
}

/** Joins a subscriber to its recipient row of one mailing, if that mailing has mailed it. */
const sentIn = (mailingId: string) =>
  and(
    eq(rateMailingRecipients.subscriberId, mailingListSubscribers.id),
    eq(rateMailingRecipients.mailingId, mailingId),
  );
/** With `sentIn`: active daily-rates subscribers the mailing has not mailed yet. */
const notYetSent = and(
  eq(mailingListSubscribers.mailType, 'mailing_list'),
  eq(mailingListSubscribers.isActivated, true),
  isNull(rateMailingRecipients.mailingId),
);

export function createSubscribersService(db: Database, enqueue: Enqueue) {
  return {
    /**
     * DESIGN §4: stores an inactive address and mails a confirmation link; a repeat does not duplicate. A repeat
     * for an unconfirmed address mails the link again when `mayMail` allows (at most once per address per window).
     */
    async subscribe(
      rawEmail: string,
      mayMail: () => Promise<boolean>,
      mailType: MailType = 'mailing_list',
    ): Promise<SubscribeResult> {
      const email = rawEmail.trim().toLowerCase();
      const [inserted] = await db
        .insert(mailingListSubscribers)
        .values({ email, mailType })
        .onConflictDoNothing()
        .returning();
      const row =
        inserted ??
        (
          await db
            .select()
            .from(mailingListSubscribers)
            .where(
              and(
                sql`lower(${mailingListSubscribers.email}) = ${email}`,
                eq(mailingListSubscribers.mailType, mailType),
              ),
            )
        )[0]!;
      if (!row.isActivated && mailType === 'mailing_list' && (await mayMail())) {
        await enqueue('subscription-confirmation-mail', { subscriberId: row.id });
      }
      return { created: Boolean(inserted), alreadyActive: row.isActivated };
    },

    async confirm(id: string): Promise<{ alreadyActive: boolean }> {
      const [row] = await db.select().from(mailingListSubscribers).where(eq(mailingListSubscribers.id, id));
      if (!row)
        throw notFound('This confirmation link is not valid. The subscription may have been removed.');
      if (row.isActivated) return { alreadyActive: true };
      await db
        .update(mailingListSubscribers)
        .set({ isActivated: true, activatedAt: new Date() })
        .where(eq(mailingListSubscribers.id, id));
      return { alreadyActive: false };
    },

    /** RFC 8058 and the link in every rates mail: that address gets no more mailings until it subscribes again. */
    async unsubscribe(id: string): Promise<{ alreadyInactive: boolean }> {
      const deactivated = await db
        .update(mailingListSubscribers)
        .set({ isActivated: false, activatedAt: null })
        .where(and(eq(mailingListSubscribers.id, id), eq(mailingListSubscribers.isActivated, true)))
        .returning({ id: mailingListSubscribers.id });
      return { alreadyInactive: deactivated.length === 0 };
    },

    /** The daily mail's preferences of an address that takes it; null when it does not. */
    async dailyPreferences(email: string): Promise<DailyMailPreferences | null> {
      const [row] = await db
        .select({ bases: mailingListSubscribers.bases, markets: mailingListSubscribers.markets })
        .from(mailingListSubscribers)
        .where(and(ofAddress(email), eq(mailingListSubscribers.isActivated, true)));
      return row ?? null;
    },

    async setDailyPreferences(email: string, preferences: DailyMailPreferences): Promise<void> {
      const updated = await db
        .update(mailingListSubscribers)
        .set(preferences)
        .where(and(ofAddress(email), eq(mailingListSubscribers.isActivated, true)))
        .returning({ id: mailingListSubscribers.id });
      if (updated.length === 0) throw notFound('This address does not take the daily rates mail.');
    },

    async findById(id: string): Promise<Subscriber | undefined> {
      const [row] = await db.select().from(mailingListSubscribers).where(eq(mailingListSubscribers.id, id));
      return row && toSubscriber(row);
    },

    async list(mailType: MailType, page: Page): Promise<{ rows: Subscriber[]; count: number }> {
      const where = eq(mailingListSubscribers.mailType, mailType);
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(mailingListSubscribers)
          .where(where)
          .orderBy(desc(mailingListSubscribers.createdAt), desc(mailingListSubscribers.id))
          .limit(page.limit)
          .offset(page.offset),
        db.select({ value: count() }).from(mailingListSubscribers).where(where),
      ]);
      return { rows: rows.map(toSubscriber), count: total?.value ?? 0 };
    },

    async remove(id: string): Promise<void> {
      const deleted = await db
        .delete(mailingListSubscribers)
        .where(eq(mailingListSubscribers.id, id))
        .returning({ id: mailingListSubscribers.id });
      if (deleted.length === 0) throw notFound('Subscriber not found.');
    },

    /**
     * Starts a rates mailing to every activated subscriber; returns how many will receive it. With a fixed
     * `mailingId` (the daily schedule derives one from the day) it starts at most once: a repeat finds the mailing
     * already under way and queues nothing.
     */
    async startRatesMailing(requestedBy: string | null, mailingId?: string): Promise<number> {
      const [mailing] = await db
        .insert(rateMailings)
        .values({ id: mailingId, requestedBy })
        .onConflictDoNothing()
        .returning({ id: rateMailings.id });
      const [active] = await db
        .select({ value: count() })
        .from(mailingListSubscribers)
        .where(
          and(
            eq(mailingListSubscribers.mailType, 'mailing_list'),
            eq(mailingListSubscribers.isActivated, true),
          ),
        );
      // Kept only once its job is queued (below), so a mailing that exists has its job.
      if (!mailing) return active?.value ?? 0;
      try {
        await enqueue('rates-mail', { mailingId: mailing.id }, { jobId: mailing.id });
      } catch (err) {
        // Not queued (503): the mailing is not kept, so the admin's retry is the only one that goes out.
        await db.delete(rateMailings).where(eq(rateMailings.id, mailing.id));
        throw err;
      }
      return active?.value ?? 0;
    },

    /** False for a mailing that was withdrawn (its start answered 503) or has completed. */
    async isMailingOpen(mailingId: string): Promise<boolean> {
      const [row] = await db
        .select({ completedAt: rateMailings.completedAt })
        .from(rateMailings)
        .where(eq(rateMailings.id, mailingId));
      return row !== undefined && row.completedAt === null;
    },

    async pendingRecipients(
      mailingId: string,
      limit: number,
    ): Promise<Array<{ id: string; email: string; bases: Base[]; markets: Market[] }>> {
      return db
        .select({
          id: mailingListSubscribers.id,
          email: mailingListSubscribers.email,
          bases: mailingListSubscribers.bases,
          markets: mailingListSubscribers.markets,
        })
        .from(mailingListSubscribers)
        .leftJoin(rateMailingRecipients, sentIn(mailingId))
        .where(notYetSent)
        .orderBy(mailingListSubscribers.createdAt, mailingListSubscribers.id)
        .limit(limit);
    },

    /** Mails a mailing has sent, of all it will send (those sent plus the active subscribers still pending). */
    async mailingProgress(mailingId: string): Promise<{ sent: number; total: number }> {
      const [[sent], [pending]] = await Promise.all([
        db
          .select({ value: count() })
          .from(rateMailingRecipients)
          .where(eq(rateMailingRecipients.mailingId, mailingId)),
        db
          .select({ value: count() })
          .from(mailingListSubscribers)
          .leftJoin(rateMailingRecipients, sentIn(mailingId))
          .where(notYetSent),
      ]);
      return { sent: sent?.value ?? 0, total: (sent?.value ?? 0) + (pending?.value ?? 0) };
    },

    /**
     * Records a recipient at the mail's commit point: `release` lets the final dot go right after the COMMIT. drizzle
     * writes the COMMIT in the microtasks that follow this callback, and setImmediate runs only after them.
     */
    async recordRecipient(mailingId: string, subscriberId: string, release: () => void): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.insert(rateMailingRecipients).values({ mailingId, subscriberId }).onConflictDoNothing();
        setImmediate(release);
      });
    },

    /** Takes back a record whose message the mail server then refused, so that a retry sends it. */
    async forgetRecipient(mailingId: string, subscriberId: string): Promise<void> {
      await db
        .delete(rateMailingRecipients)
        .where(
          and(
            eq(rateMailingRecipients.mailingId, mailingId),
            eq(rateMailingRecipients.subscriberId, subscriberId),
          ),
        );
    },

    async completeMailing(mailingId: string): Promise<void> {
      await db.update(rateMailings).set({ completedAt: new Date() }).where(eq(rateMailings.id, mailingId));
    },
  };
}

export type SubscribersService = ReturnType<typeof createSubscribersService>;

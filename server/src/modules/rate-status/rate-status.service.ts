// Nobody misses a morning: each market's last publication against its deadline (admin settings, in the
// publication time zone), and the one mail to the admins for a market still unpublished at its deadline.
import { and, eq, isNull, max } from 'drizzle-orm';
import { MARKETS, type Market, type RateStatus } from '@afrofx/shared';
import type { Database } from '../../db/client';
import { accounts, publicationDeadlineMails, rates } from '../../db/schema';
import { latestDailyRun, localDate, nextDailyRun } from '../../queue/daily-time';
import type { Mailer } from '../../mail/mailer';
import { publicationOverdueMail } from '../../mail/templates';
import type { OfficialImportService } from '../official-rates/official-import.service';
import type { SettingsService } from '../settings/settings.service';

type MarketStatus = RateStatus['markets'][number];

/** Another process committed the same deadline mail first: this one's message is dropped before its final dot. */
class AlreadySent extends Error {}

async function adminAddresses(db: Database): Promise<string[]> {
  const rows = await db
    .select({ email: accounts.email })
    .from(accounts)
    .where(and(eq(accounts.role, 'admin'), eq(accounts.status, 'active')));
  return rows.map((r) => r.email);
}

/** One overdue market's mail to the admins, unless it went out already; answers whether this call sent it. */
async function mailOverdue(
  db: Database,
  mailer: Mailer,
  status: MarketStatus,
  { day, timeZone, publicUrl }: { day: string; timeZone: string; publicUrl: string },
): Promise<boolean> {
  const key = and(eq(publicationDeadlineMails.market, status.market), eq(publicationDeadlineMails.day, day));
  await db
    .insert(publicationDeadlineMails)
    .values({ market: status.market, day, deadline: status.deadline })
    .onConflictDoNothing();
  const [claim] = await db.select().from(publicationDeadlineMails).where(key);
  if (claim?.sentAt) return false;
  const to = await adminAddresses(db);
  if (to.length === 0) return false;
  try {
    await mailer.send(
      {
        to: to.join(', '),
        ...publicationOverdueMail(status.market, status.deadline, timeZone, `${publicUrl}/admin`),
        messageId: `<publication-overdue-${status.market}-${day}@afrofx>`,
      },
      async (release) => {
        const marked = await db
          .update(publicationDeadlineMails)
          .set({ sentAt: new Date() })
          .where(and(key, isNull(publicationDeadlineMails.sentAt)))
          .returning({ market: publicationDeadlineMails.market });
        if (marked.length === 0) throw new AlreadySent();
        release();
      },
    );
  } catch (err) {
    if (err instanceof AlreadySent) return false;
    throw err;
  }
  return true;
}

export function createRateStatusService(
  db: Database,
  settings: SettingsService,
  officialImport: OfficialImportService,
) {
  async function marketStatuses(nowMs: number): Promise<{ timeZone: string; markets: MarketStatus[] }> {
    const { publicationDeadlines, publicationTimeZone: timeZone } = await settings.get();
    const published = await db
      .select({ market: rates.market, at: max(rates.createdAt) })
      .from(rates)
      .groupBy(rates.market);
    const today = localDate(timeZone, nowMs);
    const startOfToday = latestDailyRun({ hour: 0, minute: 0, timeZone }, nowMs);
    const markets = MARKETS.map((market) => {
      const deadline = publicationDeadlines[market];
      const [hour, minute] = deadline.split(':').map(Number) as [number, number];
      const daily = { hour, minute, timeZone };
      const lastRun = latestDailyRun(daily, nowMs);
      const passed = localDate(timeZone, lastRun) === today;
      const lastPublished = published.find((p) => p.market === market)?.at ?? null;
      return {
        market,
        lastPublishedAt: lastPublished?.toISOString() ?? null,
        deadline,
        deadlineAt: new Date(passed ? lastRun : nextDailyRun(daily, nowMs)).toISOString(),
        overdue: passed && (!lastPublished || lastPublished.getTime() < startOfToday),
      };
    });
    return { timeZone, markets };
  }

  return {
    async status(nowMs = Date.now()): Promise<RateStatus> {
      const [{ timeZone, markets }, officialSources] = await Promise.all([
        marketStatuses(nowMs),
        officialImport.statuses(),
      ]);
      return { timeZone, markets, officialSources };
    },

    /**
     * Mails the admins once for each market past its deadline today with nothing published. The day's row is
     * claimed first and marked sent at the mail's commit point, so a retry, a restart or a second process finds it
     * sent and stays quiet. Answers the markets mailed by this call.
     */
    async mailOverdueMarkets(mailer: Mailer, publicUrl: string, nowMs = Date.now()): Promise<Market[]> {
      const { timeZone, markets } = await marketStatuses(nowMs);
      const day = localDate(timeZone, nowMs);
      const mailed: Market[] = [];
      for (const status of markets.filter((m) => m.overdue)) {
        if (await mailOverdue(db, mailer, status, { day, timeZone, publicUrl })) mailed.push(status.market);
      }
      return mailed;
    },
  };
}

export type RateStatusService = ReturnType<typeof createRateStatusService>;

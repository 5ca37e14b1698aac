// The console's audit trail: every change an admin makes, appended with who, when, what and the state before and
// after. Nothing here changes or deletes an entry.
import { and, count, desc, eq, gte, lt, sql } from 'drizzle-orm';
import type { AdminActivity, AdminActivityKind, AdminActivityQuery } from '@afrofx/shared';
import type { Database } from '../../db/client';
import { accounts, adminActivity } from '../../db/schema';
import { badRequest } from '../../errors';
import type { Page } from '../../http';

export interface ActivityEntry {
  adminId: string;
  kind: AdminActivityKind;
  action: string;
  target?: string | null;
  before?: unknown;
  after?: unknown;
  reason?: string | null;
}

type Inserter = Pick<Database, 'insert'>;

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000);

/** Appends one entry; the admin's e-mail is kept with it so the trail reads the same after an account goes. */
export async function recordActivity(db: Inserter, entry: ActivityEntry): Promise<void> {
  await db.insert(adminActivity).values({
    adminId: entry.adminId,
    adminEmail: sql`coalesce((select ${accounts.email} from ${accounts} where ${accounts.id} = ${entry.adminId}), ${entry.adminId})`,
    kind: entry.kind,
    action: entry.action,
    target: entry.target ?? null,
    before: entry.before ?? null,
    after: entry.after ?? null,
    reason: entry.reason ?? null,
  });
}

export function createActivityService(db: Database) {
  return {
    record: (entry: ActivityEntry) => recordActivity(db, entry),

    /** Newest first, filtered by the admin's e-mail, the kind and UTC days (both ends included). */
    async list(
      page: Page,
      filter: Omit<AdminActivityQuery, 'page'>,
    ): Promise<{ rows: AdminActivity[]; count: number }> {
      if (filter.from && filter.to && filter.from > filter.to)
        throw badRequest('The from date must not be after the to date.');
      const where = and(
        filter.admin ? eq(sql`lower(${adminActivity.adminEmail})`, filter.admin.toLowerCase()) : undefined,
        filter.kind ? eq(adminActivity.kind, filter.kind) : undefined,
        filter.from ? gte(adminActivity.createdAt, new Date(`${filter.from}T00:00:00Z`)) : undefined,
        filter.to ? lt(adminActivity.createdAt, nextDay(filter.to)) : undefined,
      );
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(adminActivity)
          .where(where)
          .orderBy(desc(adminActivity.createdAt), desc(adminActivity.id))
          .limit(page.limit)
          .offset(page.offset),
        db.select({ value: count() }).from(adminActivity).where(where),
      ]);
      return {
        rows: rows.map((row) => ({
          _id: row.id,
          admin: row.adminEmail,
          kind: row.kind as AdminActivityKind,
          action: row.action,
          target: row.target,
          before: row.before,
          after: row.after,
          reason: row.reason,
          createdAt: row.createdAt.toISOString(),
        })),
        count: total?.value ?? 0,
      };
    },
  };
}

export type ActivityService = ReturnType<typeof createActivityService>;

import { asc, count, desc, inArray } from 'drizzle-orm';
import type { Plan } from '@afrofx/shared';
import type { Database } from '../../db/client';
import { planFeatures, plans } from '../../db/schema';
import type { Page } from '../../http';

export function createPlansService(db: Database) {
  return {
    async list(page: Page): Promise<{ rows: Plan[]; count: number }> {
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(plans)
          .orderBy(asc(plans.amount), desc(plans.createdAt), desc(plans.id))
          .limit(page.limit)
          .offset(page.offset),
        db.select({ value: count() }).from(plans),
      ]);
      const features =
        rows.length === 0
          ? []
          : await db
              .select()
              .from(planFeatures)
              .where(
                inArray(
                  planFeatures.planId,
                  rows.map((r) => r.id),
                ),
              )
              .orderBy(asc(planFeatures.createdAt), asc(planFeatures.id));
      return {
        rows: rows.map((row) => ({
          _id: row.id,
          name: row.name,
          amount: row.amount,
          numberOfRequest: row.numberOfRequest,
          createdAt: row.createdAt.toISOString(),
          features: features.filter((f) => f.planId === row.id).map((f) => ({ _id: f.id, title: f.title })),
        })),
        count: total?.value ?? 0,
      };
    },
  };
}

export type PlansService = ReturnType<typeof createPlansService>;

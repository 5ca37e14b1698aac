import { and, asc, count, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { ALL_ENTITLEMENTS, toCents, type FeatureInput, type Plan, type PlanInput } from '@afrofx/shared';
import type { Database } from '../../db/client';
import { paymentOrders, planFeatures, plans, transactions } from '../../db/schema';
import { badRequest, conflict, notFound } from '../../errors';
import type { Page } from '../../http';
import { soldUnder } from '../subscriptions/subscriptions.repository';

type PlanRow = typeof plans.$inferSelect;

/** Not retired: the admin still lists and edits it, a draft too. */
const current = isNull(plans.retiredAt);
/** What a developer may see and buy: current and put on sale by an admin. */
const onSale = and(current, isNotNull(plans.onSaleAt));
const planNotFound = () => notFound('Plan not found.');

function isUniqueViolation(err: unknown): boolean {
  const cause = (err as { cause?: { code?: string } }).cause;
  return (err as { code?: string }).code === '23505' || cause?.code === '23505';
}

/** Whole cents, so the price charged is exactly the price set (SPEC §9 pricing works on cents). */
function checkedInput(input: PlanInput): PlanInput {
  try {
    toCents(input.amount);
  } catch {
    throw badRequest('The amount must be in dollars and cents, like 49.99.');
  }
  if (input.entitlements?.endpoints.length === 0) throw badRequest('A plan must open at least one endpoint.');
  return { ...input, name: input.name.trim() };
}

export function createPlansService(db: Database) {
  async function withFeatures(rows: PlanRow[]): Promise<Plan[]> {
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
    return rows.map((row) => ({
      _id: row.id,
      name: row.name,
      amount: row.amount,
      numberOfRequest: row.numberOfRequest,
      entitlements: row.entitlements,
      onSale: row.onSaleAt !== null,
      createdAt: row.createdAt.toISOString(),
      features: features.filter((f) => f.planId === row.id).map((f) => ({ _id: f.id, title: f.title })),
    }));
  }

  async function listed(page: Page, order: 'cheapest' | 'newest') {
    const shown = order === 'cheapest' ? onSale : current;
    const [rows, [total]] = await Promise.all([
      db
        .select()
        .from(plans)
        .where(shown)
        .orderBy(
          ...(order === 'cheapest'
            ? [asc(plans.amount), desc(plans.createdAt), desc(plans.id)]
            : [desc(plans.createdAt), desc(plans.id)]),
        )
        .limit(page.limit)
        .offset(page.offset),
      db.select({ value: count() }).from(plans).where(shown),
    ]);
    return { rows: await withFeatures(rows), count: total?.value ?? 0 };
  }

  async function byId(id: string, which: typeof onSale): Promise<Plan> {
    const [row] = await db
      .select()
      .from(plans)
      .where(and(eq(plans.id, id), which));
    if (!row) throw planNotFound();
    return (await withFeatures([row]))[0]!;
  }
  const onSaleById = (id: string) => byId(id, onSale);
  const currentById = (id: string) => byId(id, current);
  /** Put on sale now (keeping an earlier date), taken off sale, or left as it is. */
  const onSaleAtFor = (wanted: boolean | undefined) =>
    wanted === undefined ? undefined : wanted ? sql`coalesce(${plans.onSaleAt}, now())` : null;

  /** A second plan of the same name would make the pricing grid ambiguous. */
  async function saving<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('A plan with this name already exists.');
      throw err;
    }
  }

  return {
    /** SPEC §7 fetch_plans: the pricing grid, cheapest first; drafts and retired plans are off sale. */
    list: (page: Page) => listed(page, 'cheapest'),
    /** admin/plans: newest first (DESIGN §4), drafts included. */
    listForAdmin: (page: Page) => listed(page, 'newest'),

    /** A plan that can be bought now. */
    onSale: onSaleById,

    /** What every plan on sale opens: the paid API names the cheapest that opens what a call asked for. */
    async entitlementsOnSale() {
      return db
        .select({ name: plans.name, amount: plans.amount, entitlements: plans.entitlements })
        .from(plans)
        .where(onSale)
        .orderBy(asc(plans.amount), asc(plans.createdAt));
    },

    async create(input: PlanInput): Promise<Plan> {
      const { name, amount, numberOfRequest, entitlements, onSale: selling } = checkedInput(input);
      const [row] = await saving(() =>
        db
          .insert(plans)
          .values({
            name,
            amount,
            numberOfRequest,
            entitlements: entitlements ?? ALL_ENTITLEMENTS,
            onSaleAt: selling ? new Date() : null,
          })
          .returning(),
      );
      return (await withFeatures([row!]))[0]!;
    },

    /**
     * Subscriptions already sold keep the name, quota, entitlements and price they were bought with (they hold
     * copies). Entitlements left out are kept.
     */
    async update(id: string, input: PlanInput): Promise<Plan> {
      const { name, amount, numberOfRequest, entitlements, onSale: selling } = checkedInput(input);
      const [row] = await saving(() =>
        db
          .update(plans)
          .set({
            name,
            amount,
            numberOfRequest,
            entitlements,
            onSaleAt: onSaleAtFor(selling),
            updatedAt: new Date(),
          })
          .where(and(eq(plans.id, id), current))
          .returning({ id: plans.id }),
      );
      if (!row) throw planNotFound();
      return currentById(id);
    },

    async addFeature(planId: string, { title }: FeatureInput): Promise<Plan> {
      await db.transaction(async (tx) => {
        const [plan] = await tx
          .select({ id: plans.id })
          .from(plans)
          .where(and(eq(plans.id, planId), current))
          .for('update');
        if (!plan) throw planNotFound();
        await tx.insert(planFeatures).values({ planId, title: title.trim() });
      });
      return currentById(planId);
    },

    async removeFeature(planId: string, featureId: string): Promise<Plan> {
      const plan = await currentById(planId);
      const [removed] = await db
        .delete(planFeatures)
        .where(and(eq(planFeatures.id, featureId), eq(planFeatures.planId, plan._id)))
        .returning({ id: planFeatures.id });
      if (!removed) throw notFound('Feature not found.');
      return currentById(planId);
    },

    /**
     * A plan nobody bought or tried to buy is deleted; one with subscriptions, transactions or orders is retired:
     * off sale, while its history keeps reading (subscriptions keep the name they were sold under).
     */
    async remove(id: string): Promise<'deleted' | 'retired'> {
      return db.transaction(async (tx) => {
        const [plan] = await tx
          .select({ id: plans.id })
          .from(plans)
          .where(and(eq(plans.id, id), current))
          .for('update');
        if (!plan) throw planNotFound();
        const referrers = await Promise.all([
          soldUnder(tx, id),
          ...[transactions, paymentOrders].map(async (table) => {
            const rows = await tx.select({ id: table.id }).from(table).where(eq(table.planId, id)).limit(1);
            return rows.length > 0;
          }),
        ]);
        if (referrers.some(Boolean)) {
          await tx.update(plans).set({ retiredAt: new Date() }).where(eq(plans.id, id));
          return 'retired';
        }
        await tx.delete(plans).where(eq(plans.id, id));
        return 'deleted';
      });
    },
  };
}

export type PlansService = ReturnType<typeof createPlansService>;

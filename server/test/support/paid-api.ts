// Fixtures for the paid API tests: an app with a key and a plan, and a second API instance sharing a database
// and Redis with the first (what two API processes share).
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { buildApp } from '../../src/app';
import { accounts, apps, subscriptions } from '../../src/db/schema';
import { createRuntime, type Runtime } from '../../src/runtime';
import type { TestApp } from './test-app';

export interface PaidClient {
  accountId: string;
  appId: string;
  subscriptionId?: string;
  privateKey: string;
  headers: { authorization: string };
}

let counter = 0;

export async function paidClient(
  t: Pick<TestApp, 'runtime'>,
  plan: {
    limit?: number;
    processed?: number;
    lastIncrement?: Date | null;
    startsAt?: Date;
    expireAt?: Date;
    status?: 'active' | 'upcoming';
  } | null = {},
  options: { premium?: boolean } = {},
): Promise<PaidClient> {
  const db = t.runtime.database.db;
  const [account] = await db
    .insert(accounts)
    .values({
      email: `paid-${Date.now()}-${counter++}@example.com`,
      passwordHash: 'unused',
      firstName: 'Paid',
      lastName: 'Client',
      role: 'developer',
      isActivated: true,
      state: options.premium ? 'premium_customer' : 'normal_customer',
    })
    .returning();
  const [app] = await db.insert(apps).values({ accountId: account!.id, name: 'Paid app' }).returning();
  const key = await t.runtime.services.apps.generateKey(app!.id);
  let subscriptionId: string | undefined;
  if (plan) {
    const now = Date.now();
    const [row] = await db
      .insert(subscriptions)
      .values({
        appId: app!.id,
        planName: 'Test plan',
        status: plan.status ?? 'active',
        requestLimit: plan.limit ?? 1000,
        processedRequests: plan.processed ?? 0,
        lastIncrement: plan.lastIncrement === undefined ? new Date(now) : plan.lastIncrement,
        startsAt: plan.startsAt ?? new Date(now - 86_400_000),
        expireAt: plan.expireAt ?? new Date(now + 300 * 86_400_000),
      })
      .returning();
    subscriptionId = row!.id;
  }
  return {
    accountId: account!.id,
    appId: app!.id,
    subscriptionId,
    privateKey: key.private_key,
    headers: { authorization: `Bearer ${key.private_key}` },
  };
}

export async function subscriptionRow(t: TestApp, id: string) {
  const [row] = await t.runtime.database.db.select().from(subscriptions).where(eq(subscriptions.id, id));
  return row!;
}

/** Another API instance on the same PostgreSQL database and Redis prefix (server mode only). */
export async function siblingApp(
  t: TestApp,
  options: Parameters<typeof buildApp>[1] = {},
): Promise<{ app: FastifyInstance; runtime: Runtime; close(): Promise<void> }> {
  const runtime = await createRuntime(t.config, {
    inMemoryDatabase: true,
    queuePrefix: t.runtime.keyPrefix,
    jobBackoffMs: 10,
  });
  const app = await buildApp(runtime, options);
  await app.ready();
  return {
    app,
    runtime,
    async close() {
      await app.close();
      await runtime.close();
    },
  };
}

// DESIGN §6 demo data for an empty database: 90 days of rates plus today, plans, a demo developer with an app,
// keys, an active plan and a month of request-log history, and a few mailing-list subscribers.
import { count, desc, gte } from 'drizzle-orm';
import type { Logger } from 'pino';
import {
  ALL_ENTITLEMENTS,
  ASSETS,
  BASES,
  MARKETS,
  planPrice,
  type Asset,
  type Base,
  type Entitlements,
  type Market,
} from '@afrofx/shared';
import type { Database } from '../db/client';
import {
  accounts,
  apiKeys,
  apps,
  mailingListSubscribers,
  planFeatures,
  plans,
  rates,
  transactions,
} from '../db/schema';
import { generateKeyPair } from '../modules/api-keys/api-key-material';
import { insertSubscriptionAsSold } from '../modules/subscriptions/subscriptions.repository';
import { createRequestsService, type NewRequestLog } from '../modules/requests/requests.service';
import { PUBLISHED_PASSWORDS } from '../config';
import { hashPassword } from '../passwords';
import { seedOfficialRates } from './seed-official';

export const DEMO_DEVELOPER = {
  email: 'developer@example.com',
  password: PUBLISHED_PASSWORDS.developer,
} as const;

/** Mid-market units of base per one unit of asset, late 2026. */
const MID: Record<Base, Record<Asset, number>> = {
  naira: { dollar: 1465, euro: 1705, british_pounds: 1950, canadian_dollar: 1050 },
  'kenyan-shilling': { dollar: 129.2, euro: 150.4, british_pounds: 172.1, canadian_dollar: 92.6 },
  rand: { dollar: 17.35, euro: 20.2, british_pounds: 23.1, canadian_dollar: 12.45 },
  cedis: { dollar: 11.1, euro: 12.9, british_pounds: 14.8, canadian_dollar: 7.95 },
};
/** Cash and transfer markets trade above the bank rate, with wider spreads. */
const MARKET_PREMIUM: Record<Market, { premium: number; spread: number }> = {
  bank: { premium: 1, spread: 0.006 },
  black_market_transfer: { premium: 1.025, spread: 0.012 },
  black_market_cash: { premium: 1.035, spread: 0.015 },
};

const HISTORY_DAYS = 90;

/** Deterministic pseudo-random numbers, so every fresh demo looks the same. */
function prng(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const round = (value: number, places: number) => Number(value.toFixed(places));

async function insertInBatches<T>(rows: T[], size: number, insert: (batch: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
}

function demoRates(now: Date) {
  const random = prng(20261122);
  const intraday = prng(20261123);
  const rows: Array<typeof rates.$inferInsert> = [];
  for (const base of BASES) {
    for (const asset of ASSETS) {
      // A gentle random walk ending at today's mid rate.
      const walk: number[] = [];
      let level = 1;
      for (let day = 0; day <= HISTORY_DAYS; day++) {
        walk.push(level);
        level *= 1 + (random() - 0.5) * 0.012;
      }
      const drift = walk[walk.length - 1]!;
      for (const market of MARKETS) {
        const { premium, spread } = MARKET_PREMIUM[market];
        for (let daysAgo = HISTORY_DAYS; daysAgo >= 0; daysAgo--) {
          const mid = (MID[base][asset] * premium * walk[HISTORY_DAYS - daysAgo]!) / drift;
          const places = mid > 100 ? 2 : 4;
          const createdAt =
            daysAgo === 0
              ? new Date(
                  Math.max(
                    now.getTime() - 60_000,
                    new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime(),
                  ),
                )
              : new Date(now.getFullYear(), now.getMonth(), now.getDate() - daysAgo, 9, 0, 0);
          rows.push({
            market,
            asset,
            base,
            buy: round(mid * (1 - spread), places),
            sell: round(mid * (1 + spread), places),
            createdAt,
            updatedAt: createdAt,
          });
          if (daysAgo === 0) continue;
          // Past days got two corrections in the afternoon too, so the candle charts show real candles.
          for (const hour of [13, 17]) {
            const moved = mid * (1 + (intraday() - 0.5) * 0.01);
            const at = new Date(now.getFullYear(), now.getMonth(), now.getDate() - daysAgo, hour, 0, 0);
            rows.push({
              market,
              asset,
              base,
              buy: round(moved * (1 - spread), places),
              sell: round(moved * (1 + spread), places),
              createdAt: at,
              updatedAt: at,
            });
          }
        }
      }
    }
  }
  return rows;
}

// Each card's entitlements are what the API opens; the free-text features are the marketing lines.
const DEMO_PLANS: Array<{
  name: string;
  amount: number;
  numberOfRequest: number;
  entitlements: Entitlements;
  features: string[];
}> = [
  {
    name: 'Free',
    amount: 0,
    numberOfRequest: 1_000,
    entitlements: { endpoints: ['latest'], historyDays: 0, markets: ['bank'], burstPerSecond: 2 },
    features: ['Try the API before you buy'],
  },
  {
    name: 'Starter',
    amount: 120,
    numberOfRequest: 10_000,
    entitlements: { endpoints: ['latest'], historyDays: 0, markets: [...MARKETS], burstPerSecond: 10 },
    features: ['Latest rates for every market', 'Currency list', 'E-mail support'],
  },
  {
    name: 'Growth',
    amount: 480,
    numberOfRequest: 100_000,
    entitlements: {
      endpoints: ['latest', 'convert', 'history'],
      historyDays: 90,
      markets: [...MARKETS],
      burstPerSecond: 25,
    },
    features: ['Everything in Starter', '90-day rate history', 'Currency conversion endpoint'],
  },
  {
    name: 'Business',
    amount: 1200,
    numberOfRequest: 1_000_000,
    entitlements: { ...ALL_ENTITLEMENTS, burstPerSecond: 50 },
    features: ['Everything in Growth', 'Priority support', 'A 30-minute onboarding call'],
  },
];

const AGENTS = [
  'axios/1.7.9',
  'python-requests/2.32.3',
  'curl/8.5.0',
  'node-fetch/3.3.2',
  'Go-http-client/2.0',
];
const PATHS = [
  '/v1/rates',
  '/v1/rates?market=bank',
  '/v1/rates?base=naira&asset=dollar',
  '/v1/convert?amount=100&from=dollar&to=naira',
  '/v1/currencies',
  '/v1/rates/history?market=bank&base=naira&asset=dollar',
];

/**
 * A demo restarted on a later day would show 'Rates have not been updated today.' everywhere: continue each
 * pair's series from its latest record with today's values.
 */
async function topUpTodaysRates(db: Database, now: Date, log: Pick<Logger, 'info'>) {
  const startOfToday = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  const [today] = await db.select({ value: count() }).from(rates).where(gte(rates.createdAt, startOfToday));
  if ((today?.value ?? 0) > 0) return;
  const latest = await db
    .selectDistinctOn([rates.market, rates.base, rates.asset])
    .from(rates)
    .orderBy(rates.market, rates.base, rates.asset, desc(rates.createdAt));
  if (latest.length === 0) return;
  const random = prng(now.getTime() % 2 ** 31);
  await db.insert(rates).values(
    latest.map((r) => {
      const move = 1 + (random() - 0.5) * 0.01;
      const places = r.buy > 100 ? 2 : 4;
      return {
        market: r.market,
        base: r.base,
        asset: r.asset,
        buy: round(r.buy * move, places),
        sell: round(r.sell * move, places),
        createdAt: now,
        updatedAt: now,
      };
    }),
  );
  log.info({ rates: latest.length }, "added today's demo rates");
}

export async function seedDemoData(db: Database, log: Pick<Logger, 'info'>): Promise<boolean> {
  const now = new Date();
  await seedOfficialRates(db, now);
  const [existing] = await db.select({ value: count() }).from(rates);
  if ((existing?.value ?? 0) > 0) {
    await topUpTodaysRates(db, now, log);
    return false;
  }
  await insertInBatches(demoRates(now), 500, (batch) => db.insert(rates).values(batch));

  // Each part is seeded only where its table is empty: an admin may have deleted every rate and kept the rest.
  const [existingPlans] = await db.select({ value: count() }).from(plans);
  const planIds: string[] = [];
  if ((existingPlans?.value ?? 0) === 0) {
    for (const [i, plan] of DEMO_PLANS.entries()) {
      const [row] = await db
        .insert(plans)
        .values({
          name: plan.name,
          amount: plan.amount,
          numberOfRequest: plan.numberOfRequest,
          entitlements: plan.entitlements,
          createdAt: new Date(now.getTime() - (10 - i) * 86_400_000),
        })
        .returning({ id: plans.id });
      planIds.push(row!.id);
      await db.insert(planFeatures).values(
        plan.features.map((title, position) => ({
          planId: row!.id,
          title,
          createdAt: new Date(now.getTime() + position),
        })),
      );
    }
  }

  const [developer] = await db
    .insert(accounts)
    .values({
      email: DEMO_DEVELOPER.email,
      passwordHash: await hashPassword(DEMO_DEVELOPER.password),
      firstName: 'Ada',
      lastName: 'Okafor',
      role: 'developer',
      isActivated: true,
    })
    .onConflictDoNothing()
    .returning({ id: accounts.id });
  if (developer && planIds.length > 0) {
    const [app] = await db
      .insert(apps)
      .values({ accountId: developer.id, name: 'Demo Remittance App' })
      .returning({ id: apps.id });
    const keys = generateKeyPair();
    await db.insert(apiKeys).values({
      appId: app!.id,
      publicKey: keys.publicKey,
      privateKeyHash: keys.privateKeyHash,
      privateKeyLast4: keys.privateKeyLast4,
    });

    const boughtAt = new Date(now.getTime() - 40 * 86_400_000);
    const expireAt = new Date(boughtAt);
    expireAt.setFullYear(expireAt.getFullYear() + 1);
    const growthIndex = DEMO_PLANS.findIndex((plan) => plan.name === 'Growth');
    const growth = DEMO_PLANS[growthIndex]!;
    const random = prng(42);
    const logRows: NewRequestLog[] = [];
    const monthStart = new Date(now.getFullYear(), now.getMonth(), 1);
    let thisMonth = 0;
    for (let daysAgo = 30; daysAgo >= 0; daysAgo--) {
      const perDay = 40 + Math.floor(random() * 120);
      for (let i = 0; i < perDay; i++) {
        const createdAt = new Date(
          now.getTime() -
            daysAgo * 86_400_000 -
            Math.floor(random() * (daysAgo === 0 ? 3_600_000 : 86_400_000)),
        );
        if (createdAt >= monthStart) thisMonth++;
        logRows.push({
          appId: app!.id,
          host: 'api.afrofx.local',
          agent: AGENTS[Math.floor(random() * AGENTS.length)]!,
          ipAddress: `102.89.${Math.floor(random() * 255)}.${Math.floor(random() * 255)}`,
          originalUrl: PATHS[Math.floor(random() * PATHS.length)]!,
          status: random() < 0.97 ? 200 : 400,
          latencyMs: round(2 + random() * 18, 2),
          createdAt,
        });
      }
    }
    await createRequestsService(db).record(logRows);

    // Bought a month ago, with this month's use counted.
    const subscriptionId = await insertSubscriptionAsSold(db, {
      appId: app!.id,
      planId: planIds[growthIndex],
      planName: growth.name,
      status: 'active',
      requestLimit: growth.numberOfRequest,
      entitlements: growth.entitlements,
      amount: growth.amount,
      processedRequests: thisMonth,
      startsAt: boughtAt,
      expireAt,
      lastIncrement: now,
      createdAt: boughtAt,
    });
    await db.insert(transactions).values({
      appId: app!.id,
      accountId: developer.id,
      planId: planIds[growthIndex],
      subscriptionId,
      currency: 'USD',
      amount: planPrice(growth.amount, 'USD', 0),
      reference: 'demo-sandbox-0001',
      provider: 'sandbox',
      transactionStatus: 'successful',
      confirmedStatus: true,
      createdAt: boughtAt,
    });
  }

  const subscribers = [
    ['amaka@example.com', true],
    ['kwame@example.com', true],
    ['wanjiru@example.com', true],
    ['thabo@example.com', false],
    ['efua@example.com', true],
  ] as const;
  await db
    .insert(mailingListSubscribers)
    .values(
      subscribers.map(([email, isActivated], i) => ({
        email,
        isActivated,
        createdAt: new Date(now.getTime() - (20 - i) * 86_400_000),
      })),
    )
    .onConflictDoNothing();
  await db
    .insert(mailingListSubscribers)
    .values([
      { email: 'cto@fintech.example', mailType: 'api_wait_list_user' as const },
      { email: 'dev@remitly.example', mailType: 'api_wait_list_user' as const },
    ])
    .onConflictDoNothing();

  log.info('seeded demo data');
  return true;
}

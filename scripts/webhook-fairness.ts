// `npm run measure:webhook-fairness`: one account's 9 Business apps point their webhooks at receivers that never
// answer, and another account's test events must still arrive within 2 s each. A measurement, not a test: it prints
// the figures and exits 1 when one is over. Embedded PGlite and in-process jobs; with DATABASE_URL and REDIS_URL
// set, a scratch database on that server and BullMQ (the product's two modes). The product's webhook settings apply
// (WEBHOOK_TIMEOUT_MS 10 s, WEBHOOK_APP_IN_FLIGHT 2, WEBHOOK_ACCOUNT_IN_FLIGHT 4): the hanging account's
// attempts last the whole measurement.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../server/src/config';
import { accounts, apps, subscriptions } from '../server/src/db/schema';
import { createRuntime } from '../server/src/runtime';
import { createScratchDatabase } from '../server/test/support/scratch-database';

const HANGING_APPS = 9;
const ENDPOINTS_PER_APP = 2;
const EVENTS_PER_HANGING_ENDPOINT = 5;
const OTHER_EVENTS = 20;
const LIMIT_MS = 2000;

async function listen(handler: Parameters<typeof createServer>[1]) {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'afrofx-webhook-fairness-'));
  const scratch = process.env.DATABASE_URL
    ? await createScratchDatabase(process.env.DATABASE_URL, 'afrofx_fairness')
    : undefined;
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: scratch?.url,
    REDIS_URL: process.env.REDIS_URL,
    PUBLIC_URL: 'http://afrofx.test',
    DEMO_DATA: 'false',
    WEB_DIST: '',
    LOG_LEVEL: 'warn',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    // WEBHOOK_ACCOUNT_IN_FLIGHT=100 shows the lane without the account cap.
    WEBHOOK_ACCOUNT_IN_FLIGHT: process.env.WEBHOOK_ACCOUNT_IN_FLIGHT,
  });
  const runtime = await createRuntime(config, {
    inMemoryDatabase: true,
    queuePrefix: `afrofx-fairness-${randomBytes(4).toString('hex')}`,
  });
  const worker = runtime.startWorker();
  const db = runtime.database.db;
  const webhooks = runtime.services.webhooks;

  const held: ServerResponse[] = [];
  let hangingOpen = 0;
  const hanging = await listen((req, res) => {
    hangingOpen += 1;
    res.once('close', () => (hangingOpen -= 1));
    req.resume();
    held.push(res);
  });
  const arrived = new Map<string, number>();
  const answering = await listen((req, res) => {
    arrived.set(String(req.headers['afrofx-delivery']), performance.now());
    req.resume();
    res.end('ok');
  });

  async function accountWithApps(name: string, n: number) {
    const [account] = await db
      .insert(accounts)
      .values({
        email: `${name}@example.com`,
        passwordHash: 'x',
        firstName: name,
        lastName: 'Fairness',
        role: 'developer',
        isActivated: true,
      })
      .returning();
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const [app] = await db
        .insert(apps)
        .values({ accountId: account!.id, name: `${name} ${i + 1}` })
        .returning();
      await db.insert(subscriptions).values({
        appId: app!.id,
        planName: 'Business',
        status: 'active',
        requestLimit: 1_000_000,
        startsAt: new Date(Date.now() - 86_400_000),
        expireAt: new Date(Date.now() + 30 * 86_400_000),
      });
      ids.push(app!.id);
    }
    return ids;
  }

  try {
    for (const appId of await accountWithApps('hanging', HANGING_APPS))
      for (let e = 0; e < ENDPOINTS_PER_APP; e++) {
        const endpoint = await webhooks.create(appId, {
          url: `${hanging.url}/hooks`,
          events: ['rate.updated'],
        });
        for (let i = 0; i < EVENTS_PER_HANGING_ENDPOINT; i++) await webhooks.sendTest(appId, endpoint._id);
      }
    // The hanging account takes what it may of the lane before the other account sends anything.
    const filled = Date.now() + 3000;
    while (Date.now() < filled) await new Promise((resolve) => setTimeout(resolve, 100));
    const hangingAtStart = hangingOpen;

    const [otherApp] = await accountWithApps('other', 1);
    const endpoint = await webhooks.create(otherApp!, {
      url: `${answering.url}/hooks`,
      events: ['rate.updated'],
    });
    const latencies: number[] = [];
    for (let i = 0; i < OTHER_EVENTS; i++) {
      const sent = performance.now();
      const delivery = await webhooks.sendTest(otherApp!, endpoint._id);
      const deadline = sent + 15_000;
      while (!arrived.has(delivery._id) && performance.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 5));
      latencies.push((arrived.get(delivery._id) ?? Number.POSITIVE_INFINITY) - sent);
    }
    latencies.sort((a, b) => a - b);
    const median = latencies[Math.floor(latencies.length / 2)]!;
    const max = latencies.at(-1)!;
    console.log(
      `mode: ${scratch ? 'PostgreSQL + Redis' : 'embedded'}; hanging account: ${HANGING_APPS} apps × ` +
        `${ENDPOINTS_PER_APP} endpoints, ${hangingAtStart} connections open (account cap ` +
        `${config.webhooks.accountInFlight})`,
    );
    console.log(
      `other account: ${OTHER_EVENTS} test events, median ${median.toFixed(0)} ms, max ${max.toFixed(0)} ms ` +
        `(limit ${LIMIT_MS} ms)`,
    );
    if (max > LIMIT_MS) process.exitCode = 1;
  } finally {
    held.forEach((res) => res.destroy());
    hanging.server.closeAllConnections();
    answering.server.closeAllConnections();
    hanging.server.close();
    answering.server.close();
    await worker?.close();
    await runtime.close();
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

void main().then(
  () => process.exit(),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);

// GET /v1/status, each market's freshness and the health of the API, database, queue and mail.
import { once } from 'node:events';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Status } from '@afrofx/shared';
import { rates } from '../src/db/schema';
import { createTestApp, type TestApp } from './support/test-app';

const HOUR_MS = 3_600_000;

async function status(t: TestApp) {
  const res = await t.app.inject({ method: 'GET', url: '/v1/status' });
  expect(res.statusCode).toBe(200);
  return res.json() as { data: Status; message: string };
}

describe('GET /v1/status', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    const now = Date.now();
    const seeded = (market: 'bank' | 'black_market_cash', hoursAgo: number, asset: 'dollar' | 'euro') => ({
      market,
      base: 'naira' as const,
      asset,
      buy: 1500,
      sell: 1520,
      createdAt: new Date(now - hoursAgo * HOUR_MS),
      updatedAt: new Date(now - hoursAgo * HOUR_MS),
    });
    await t.runtime.database.db
      .insert(rates)
      .values([
        seeded('bank', 30, 'dollar'),
        seeded('bank', 26, 'euro'),
        seeded('black_market_cash', 5, 'dollar'),
        seeded('black_market_cash', 40, 'dollar'),
      ]);
  });
  afterAll(() => t.close());

  it('answers without a key: every service healthy and each market’s newest update, age and staleness', async () => {
    const { data, message } = await status(t);
    expect(message).toBe('All systems go.');
    expect(data.status).toBe('ok');
    expect(data.services).toEqual({
      api: { ok: true, driver: 'fastify' },
      database: { ok: true, driver: t.runtime.database.driver },
      queue: { ok: true, driver: t.runtime.queue.driver },
      mail: { ok: true, driver: 'outbox' },
    });
    const [cash, bank, transfer] = data.markets;
    // The newest of the market's latest rates: euro 26 h ago beats dollar 30 h ago; older than the default 24 h.
    expect(bank).toEqual(expect.objectContaining({ market: 'bank', label: 'Bank', stale: true }));
    expect(bank!.ageSeconds).toBeGreaterThanOrEqual(26 * 3600);
    expect(bank!.ageSeconds).toBeLessThan(27 * 3600);
    expect(cash).toEqual(
      expect.objectContaining({ market: 'black_market_cash', label: 'Cash', stale: false }),
    );
    expect(cash!.ageSeconds).toBeGreaterThanOrEqual(5 * 3600);
    expect(cash!.ageSeconds).toBeLessThan(6 * 3600);
    expect(transfer).toEqual({
      market: 'black_market_transfer',
      label: 'Transfer',
      updatedAt: null,
      ageSeconds: null,
      stale: true,
    });
  });
});

describe('GET /v1/status when the mail server fails', () => {
  it('reports mail as failed, within its bound, when the SMTP server accepts and never greets', async () => {
    const sockets = new Set<net.Socket>();
    const stalled = net.createServer((socket) => sockets.add(socket));
    stalled.listen(0, '127.0.0.1');
    await once(stalled, 'listening');
    const { port } = stalled.address() as AddressInfo;
    const t = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}` });
    try {
      const { data, message } = await status(t);
      expect(message).toBe('Degraded.');
      expect(data.status).toBe('degraded');
      expect(data.services.mail).toEqual({ ok: false, driver: 'smtp', detail: 'no answer within 2000 ms' });
      expect(data.services.database.ok).toBe(true);
      expect(sockets.size).toBeGreaterThan(0);
    } finally {
      await t.close();
      for (const socket of sockets) socket.destroy();
      stalled.close();
    }
  });

  it('reports mail as failed when nothing listens at SMTP_URL', async () => {
    const closed = net.createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const { port } = closed.address() as AddressInfo;
    closed.close();
    await once(closed, 'close');
    const t = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}` });
    try {
      const { data } = await status(t);
      expect(data.status).toBe('degraded');
      expect(data.services.mail).toEqual({
        ok: false,
        driver: 'smtp',
        detail: expect.stringContaining('ECONNREFUSED'),
      });
    } finally {
      await t.close();
    }
  });
});

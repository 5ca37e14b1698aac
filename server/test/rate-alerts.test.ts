import { eq, sql } from 'drizzle-orm';
import { ALERT_REARM_MARGIN, MAX_ALERTS_PER_OWNER } from '@afrofx/shared';
import { rateAlertFirings, rateAlerts } from '../src/db/schema';
import { evaluateAlerts } from '../src/modules/alerts/alert-evaluation';
import { manageToken } from '../src/modules/alerts/alert-links';
import { alertEvaluations } from './support/alert-evaluations';
import { createTestApp, eventually, type TestApp } from './support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const db = () => t.runtime.database.db;
const alertBody = {
  market: 'black_market_cash',
  base: 'naira',
  asset: 'dollar',
  side: 'sell',
  condition: 'above',
  level: 1600,
} as const;

async function publish(sell: number, extra: Record<string, unknown> = {}) {
  await t.createRate({
    market: 'black_market_cash',
    asset: 'dollar',
    base: 'naira',
    buy: sell - 20,
    sell,
    ...extra,
  });
}

const { watchEvaluations, evaluatedAt } = alertEvaluations(() => t);

async function firingsOf(alertId: string) {
  return db().select().from(rateAlertFirings).where(eq(rateAlertFirings.alertId, alertId));
}

async function confirmedAlert(email: string, body: Record<string, unknown> = alertBody) {
  const res = await t.app.inject({ method: 'POST', url: '/v1/user/alerts', payload: { email, ...body } });
  expect(res.statusCode).toBe(200);
  const [mail] = await eventually(async () => {
    const found = await t.mailsTo(email, /Confirm your AfroFX rate alert/);
    expect(found).toHaveLength(1);
    return found;
  });
  const link = mail!.links.find((l) => l.includes('/alerts/confirm/'))!;
  const token = link.split('/alerts/confirm/')[1]!;
  const confirmed = await t.app.inject({ method: 'POST', url: `/v1/user/alerts/confirm/${token}` });
  expect(confirmed.statusCode).toBe(200);
  const manageToken = confirmed.json().data.manageToken as string;
  const listed = await t.app.inject({ method: 'GET', url: `/v1/user/alerts/${manageToken}` });
  return { manageToken, alert: listed.json().data.alerts[0] as { _id: string; confirmed: boolean } };
}

describe('alert evaluation', () => {
  let at = Date.parse('2026-01-01T07:00:00Z');
  const evaluate = (sell: number) =>
    evaluateAlerts(db(), {
      publishedAt: new Date((at += 60_000)),
      rates: [{ market: 'bank', base: 'cedis', asset: 'euro', buy: sell - 0.1, sell }],
    });

  it('fires once per crossing and re-arms only past the margin', async () => {
    const alert = await t.runtime.services.alerts.createForChat(901, {
      market: 'bank',
      base: 'cedis',
      asset: 'euro',
      side: 'sell',
      condition: 'above',
      level: 100,
    });
    const firings = async (sell: number) => {
      await evaluate(sell);
      return (await firingsOf(alert._id)).length;
    };
    expect(await firings(99)).toBe(0);
    expect(await firings(101)).toBe(1);
    expect(await firings(102)).toBe(1);
    expect(await firings(100 * (1 - ALERT_REARM_MARGIN / 2))).toBe(1);
    expect(await firings(101)).toBe(1);
    expect(await firings(100 * (1 - ALERT_REARM_MARGIN * 2))).toBe(1);
    expect(await firings(101)).toBe(2);
  });

  it('fires a move alert on a move larger than its percentage', async () => {
    const alert = await t.runtime.services.alerts.createForChat(902, {
      market: 'bank',
      base: 'cedis',
      asset: 'euro',
      side: 'sell',
      condition: 'move',
      level: 2,
    });
    const firings = async (sell: number) => {
      await evaluate(sell);
      return (await firingsOf(alert._id)).length;
    };
    expect(await firings(100)).toBe(0);
    expect(await firings(101.5)).toBe(0);
    expect(await firings(98.9)).toBe(1);
  });

  it('does not apply an older publication evaluated after a newer one', async () => {
    const alert = await t.runtime.services.alerts.createForChat(903, {
      market: 'bank',
      base: 'cedis',
      asset: 'euro',
      side: 'sell',
      condition: 'above',
      level: 100,
    });
    const newer = new Date((at += 120_000));
    const pub = (publishedAt: Date, sell: number) =>
      evaluateAlerts(db(), {
        publishedAt,
        rates: [{ market: 'bank', base: 'cedis', asset: 'euro', buy: sell - 0.1, sell }],
      });
    await pub(newer, 101);
    expect(await firingsOf(alert._id)).toHaveLength(1);
    await pub(new Date(newer.getTime() - 60_000), 90);
    expect(await firingsOf(alert._id)).toHaveLength(1);
    const [row] = await db().select().from(rateAlerts).where(eq(rateAlerts.id, alert._id));
    expect(row).toMatchObject({ armed: false, lastFigure: 101 });
  });
});

describe('rate alerts by e-mail', () => {
  it('is confirmed through its mail, fires once per crossing with figure, time, market and source, and is removed from its manage link', async () => {
    await watchEvaluations();
    const email = 'alert-reader@example.com';
    await publish(1550);
    const { manageToken, alert } = await confirmedAlert(email);
    expect(alert.confirmed).toBe(true);

    await publish(1610);
    const [fired] = await eventually(async () => {
      const found = await t.mailsTo(email, /^Rate alert/);
      expect(found).toHaveLength(1);
      return found;
    });
    expect(fired!.raw).toContain('1,610.00');
    expect(fired!.raw).toContain('Cash market');
    expect(fired!.raw).toMatch(/publication of \w{3}-\d{2}-\d{4} .* UTC/);
    expect(fired!.raw).toContain("Source: AfroFX's Cash market rates");
    expect(fired!.raw).toMatch(
      /^List-Unsubscribe:\s+<http:\/\/afrofx\.test\/v1\/user\/alerts\/\S+\/unsubscribe>/m,
    );
    expect(fired!.raw).toContain(`/v1/user/alerts/${manageToken}/unsubscribe>`);
    expect(fired!.raw).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');

    // Above the line again: no second mail.
    await publish(1620);
    await evaluatedAt(alert._id, 1620);
    expect(await firingsOf(alert._id)).toHaveLength(1);
    // Back under the line but within the margin: still not re-armed.
    await publish(1600 * (1 - ALERT_REARM_MARGIN / 2));
    await evaluatedAt(alert._id, 1600 * (1 - ALERT_REARM_MARGIN / 2));
    await publish(1605);
    await evaluatedAt(alert._id, 1605);
    expect(await firingsOf(alert._id)).toHaveLength(1);
    // A fall past the margin and a new crossing fire again.
    await publish(1580);
    await evaluatedAt(alert._id, 1580);
    await publish(1612);
    await eventually(async () => expect(await t.mailsTo(email, /^Rate alert/)).toHaveLength(2));

    const paused = await t.app.inject({
      method: 'PUT',
      url: `/v1/user/alerts/${manageToken}/${alert._id}`,
      payload: { paused: true },
    });
    expect(paused.statusCode).toBe(200);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/v1/user/alerts/${manageToken}/${alert._id}`,
    });
    expect(removed.statusCode).toBe(200);
    const listed = await t.app.inject({ method: 'GET', url: `/v1/user/alerts/${manageToken}` });
    expect(listed.json().data.alerts).toEqual([]);
  });

  it('removes every alert of the address on a one-click unsubscribe', async () => {
    const email = 'one-click@example.com';
    const { manageToken } = await confirmedAlert(email);
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/user/alerts/${manageToken}/unsubscribe`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(res.statusCode).toBe(200);
    const [left] = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(rateAlerts)
      .where(eq(rateAlerts.email, email));
    expect(left!.n).toBe(0);
  });

  it('does not fire an unconfirmed alert', async () => {
    const email = 'unconfirmed@example.com';
    await t.app.inject({
      method: 'POST',
      url: '/v1/user/alerts',
      payload: { email, ...alertBody, level: 10 },
    });
    const [row] = await eventually(async () => {
      const rows = await db().select().from(rateAlerts).where(eq(rateAlerts.email, email));
      expect(rows).toHaveLength(1);
      return rows;
    });
    await publish(1700);
    await eventually(async () => expect(await t.mailsTo(email, /Confirm/)).toHaveLength(1));
    expect(await firingsOf(row!.id)).toHaveLength(0);
  });

  it(`refuses an address's alert beyond ${MAX_ALERTS_PER_OWNER}, and mails it at most 3 confirmations an hour`, async () => {
    const email = 'many@example.com';
    // Straight to the service: the route's per-address request limit is not the subject here.
    for (let i = 0; i < MAX_ALERTS_PER_OWNER; i++)
      await t.runtime.services.alerts.createForEmail({ email, ...alertBody, level: 1000 + i });
    const over = await t.app.inject({
      method: 'POST',
      url: '/v1/user/alerts',
      payload: { email, ...alertBody },
    });
    expect(over.statusCode).toBe(409);
    expect(over.json().message).toMatch(/at most 10 alerts/);
    await eventually(async () => expect(await t.mailsTo(email, /Confirm/)).toHaveLength(3));
  });

  it('refuses a forged manage link and a bad alert', async () => {
    const forged = await t.app.inject({
      method: 'GET',
      url: `/v1/user/alerts/${Buffer.from('x@example.com').toString('base64url')}.abc`,
    });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().message).toMatch(/not valid/);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/v1/user/alerts',
      payload: { email: 'bad@example.com', ...alertBody, level: -1 },
    });
    expect(bad.statusCode).toBe(400);
  });

  it('evaluates a publication once however often it is evaluated', async () => {
    const email = 'retry@example.com';
    const { alert } = await confirmedAlert(email, { ...alertBody, base: 'cedis', level: 15 });
    const publication = {
      publishedAt: new Date('2026-11-20T08:00:00Z'),
      rates: [
        {
          market: 'black_market_cash' as const,
          base: 'cedis' as const,
          asset: 'dollar' as const,
          buy: 15,
          sell: 16,
        },
      ],
    };
    expect(await t.runtime.services.alerts.evaluate(publication)).toBe(1);
    await t.runtime.services.alerts.evaluate(publication);
    await db().update(rateAlerts).set({ armed: true }).where(eq(rateAlerts.id, alert._id));
    expect(await t.runtime.services.alerts.evaluate(publication)).toBe(0);
    expect(await firingsOf(alert._id)).toHaveLength(1);
    await eventually(async () => expect(await t.mailsTo(email, /^Rate alert/)).toHaveLength(1));
  });
});

describe('daily mail preferences', () => {
  it('keeps to the bases and markets chosen from the manage link', async () => {
    const email = 'daily-reader@example.com';
    await t.app.inject({ method: 'POST', url: '/v1/user/create_email_sub', payload: { email } });
    const confirmation = await eventually(async () => {
      const [mail] = await t.mailsTo(email, /Confirm your AfroFX rates subscription/);
      expect(mail).toBeDefined();
      return mail!;
    });
    const id = confirmation.links.find((l) => l.includes('/confirmation/'))!.split('/confirmation/')[1]!;
    expect((await t.app.inject({ method: 'POST', url: `/v1/user/confirmation/${id}` })).statusCode).toBe(200);
    await publish(1650, { market: 'bank', base: 'rand', buy: 18.1, sell: 18.4 });

    const token = manageToken(t.config.jwtSecret, email);
    const saved = await t.app.inject({
      method: 'PUT',
      url: `/v1/user/alerts/${token}/daily`,
      payload: { bases: ['rand'], markets: ['bank'] },
    });
    expect(saved.statusCode).toBe(200);
    const listed = await t.app.inject({ method: 'GET', url: `/v1/user/alerts/${token}` });
    expect(listed.json().data.daily).toEqual({ bases: ['rand'], markets: ['bank'] });

    const started = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/send_rate_to_mail',
      headers: await t.adminHeaders(),
    });
    expect(started.statusCode).toBe(202);
    const [daily] = await eventually(async () => {
      const found = await t.mailsTo(email, /^AfroFX rates for/);
      expect(found).toHaveLength(1);
      return found;
    });
    expect(daily!.raw).toContain('USD/ZAR');
    expect(daily!.raw).not.toContain('USD/NGN');
    expect(daily!.raw).toContain(`/alerts/manage/${token}`);
  });

  it('refuses preferences for an address that does not take the daily mail', async () => {
    const token = manageToken(t.config.jwtSecret, 'nobody@example.com');
    const res = await t.app.inject({
      method: 'PUT',
      url: `/v1/user/alerts/${token}/daily`,
      payload: { bases: ['rand'], markets: [] },
    });
    expect(res.statusCode).toBe(404);
  });
});

import { publicationDeadlineMails } from '../src/db/schema';
import { startSmtpSink, type SmtpSink } from './support/smtp-sink';
import { ADMIN, createTestApp, type TestApp } from './support/test-app';

let sink: SmtpSink;
let t: TestApp;
beforeAll(async () => {
  sink = await startSmtpSink();
  t = await createTestApp({ SMTP_URL: sink.url });
});
afterAll(async () => {
  await t.close();
  await sink.close();
});

async function rateStatus() {
  const res = await t.app.inject({
    method: 'GET',
    url: '/v1/admin/rate_status',
    headers: await t.adminHeaders(),
  });
  expect(res.statusCode).toBe(200);
  return res.json().data as {
    timeZone: string;
    markets: Array<{ market: string; deadline: string; overdue: boolean; lastPublishedAt: string | null }>;
  };
}

describe('publication deadlines', () => {
  beforeAll(async () => {
    // The bank market's deadline has passed today with nothing published; the cash market's too, but it is
    // published; the transfer market's comes at the end of the day.
    const settings = await t.app.inject({
      method: 'PUT',
      url: '/v1/admin/settings',
      headers: await t.adminHeaders(),
      payload: {
        publicationTimeZone: 'UTC',
        publicationDeadlines: { bank: '00:00', black_market_cash: '00:00', black_market_transfer: '23:59' },
      },
    });
    expect(settings.statusCode).toBe(200);
    await t.createRate({
      market: 'black_market_cash',
      asset: 'dollar',
      base: 'naira',
      buy: 1500,
      sell: 1520,
    });
  });

  it('shows a market unpublished past its deadline as overdue in the admin rate status', async () => {
    const status = await rateStatus();
    expect(status.timeZone).toBe('UTC');
    expect(status.markets.map((m) => [m.market, m.deadline, m.overdue])).toEqual([
      ['black_market_cash', '00:00', false],
      ['bank', '00:00', true],
      ['black_market_transfer', '23:59', false],
    ]);
    expect(status.markets.find((m) => m.market === 'black_market_cash')!.lastPublishedAt).not.toBeNull();
  });

  it('is not overdue before its deadline', async () => {
    const justAfterMidnight = Date.parse(`${new Date().toISOString().slice(0, 10)}T00:01:00Z`);
    const before = await t.runtime.services.rateStatus.status(justAfterMidnight);
    expect(before.markets.find((m) => m.market === 'black_market_transfer')!.overdue).toBe(false);
  });

  it('sends exactly one mail to the admins, however many runs, retries and processes check it', async () => {
    const { rateStatus: service } = t.runtime.services;
    // Two processes checking at the same moment, then a retry, then the scheduled job twice.
    const together = await Promise.all([
      service.mailOverdueMarkets(t.runtime.mailer, t.config.publicUrl),
      service.mailOverdueMarkets(t.runtime.mailer, t.config.publicUrl),
    ]);
    expect(together.flat()).toEqual(['bank']);
    await expect(service.mailOverdueMarkets(t.runtime.mailer, t.config.publicUrl)).resolves.toEqual([]);
    await t.runtime.queue.enqueue('publication-deadlines', {}, { jobId: 'first-minute' });
    await t.runtime.queue.enqueue('publication-deadlines', {}, { jobId: 'second-minute' });
    await t.runtime.queue.drain();

    expect(sink.delivered).toHaveLength(1);
    expect(sink.delivered[0]!.to).toEqual([ADMIN.email]);
    expect(sink.delivered[0]!.raw).toMatch(/Subject: Bank rates are not published yet/);
    const records = await t.runtime.database.db.select().from(publicationDeadlineMails);
    expect(records).toEqual([
      expect.objectContaining({ market: 'bank', deadline: '00:00', sentAt: expect.any(Date) }),
    ]);
  });
});

// Mails write dates in SPEC §9's one format and name the zone they mean, whatever the server's own zone.
import type { Rate, Receipt } from '@afrofx/shared';
import { ratesMail, receiptMail, usageWarningMail } from '../src/mail/templates';

const rate: Rate = {
  _id: 'r1',
  market: 'bank',
  asset: 'dollar',
  base: 'naira',
  buy: 1500.5,
  sell: 1510.25,
  createdAt: '2026-11-23T06:00:00.000Z',
  source: 'desk',
  publishedAt: '2026-11-23T06:00:00.000Z',
  publicationId: null,
  revision: 0,
  updatedAt: '2026-11-23T06:00:00.000Z',
};

describe('rates mail', () => {
  it("dates its title by the day on the sending zone's wall clock", () => {
    // 23:30 UTC on Nov-23 is already Nov-24 in Lagos.
    const lateEvening = new Date('2026-11-23T23:30:00Z');
    const inLagos = ratesMail(
      [rate],
      'https://afrofx.test',
      'https://afrofx.test/u/x',
      'Africa/Lagos',
      lateEvening,
    );
    expect(inLagos.subject).toBe('AfroFX rates for Nov-24-2026');
    const inUtc = ratesMail([rate], 'https://afrofx.test', 'https://afrofx.test/u/x', 'UTC', lateEvening);
    expect(inUtc.subject).toBe('AfroFX rates for Nov-23-2026');
    expect(inUtc.text).toContain('USD/NGN Bank: buy ₦1,500.50, sell ₦1,510.25');
  });
});

describe('usage warning mail', () => {
  const usage = {
    appName: 'Remit',
    planName: 'Growth',
    used: 8000,
    limit: 10000,
    resetsAt: new Date('2026-12-01T00:00:00Z'),
  };

  it('says when the count resets, in UTC and saying so', () => {
    const mail = usageWarningMail('Ada', { ...usage, percent: 80 }, 'https://afrofx.test/developer/plans');
    expect(mail.text).toContain('The count resets on Dec-01-2026 12:00:00 AM UTC.');
    expect(mail.html).toContain('The count resets on Dec-01-2026 12:00:00 AM UTC.');
  });

  it('says the same when the quota is used up', () => {
    const mail = usageWarningMail('Ada', { ...usage, used: 10000, percent: 100 }, 'https://afrofx.test/p');
    expect(mail.text).toContain(
      'Further requests are refused with 429 until the count resets on Dec-01-2026 12:00:00 AM UTC.',
    );
  });
});

describe('receipt mail', () => {
  const receipt: Receipt = {
    reference: 'afx_AAAAAAAAAAAAAAAAAAAAAAAA',
    paidAt: '2026-11-23T23:30:00.000Z',
    amount: 37148,
    currency: 'NGN',
    fee: 148,
    lines: [
      { label: 'Growth plan, 12 months', amount: 37000 },
      { label: 'Payment fee (0.4%)', amount: 148 },
    ],
    exchangeRate: { rate: 1520, at: '2026-11-23T23:20:00.000Z' },
    plan: { name: 'Growth', requestLimit: 100000 },
    app: { _id: 'app-1', name: '<img src=x onerror=alert(1)> Remit' },
    period: { start: '2026-11-23T23:30:00.000Z', end: '2027-11-23T23:30:00.000Z' },
    isUpcoming: true,
    billedTo: { name: 'Ada Okafor', email: 'ada@example.com' },
    seller: { name: 'AfroFX', address: '12 Marina Road, Lagos' },
    mailedAt: null,
  };
  const mail = receiptMail(receipt, 'https://afrofx.example/developer/receipts/afx_AAAAAAAAAAAAAAAAAAAAAAAA');

  it('gives every line, the total, the period in UTC and the address, in text and HTML', () => {
    expect(mail.subject).toBe('Your AfroFX receipt: NGN 37,148.00');
    for (const body of [mail.text, mail.html]) {
      expect(body).toContain('Growth plan, 12 months');
      expect(body).toContain('NGN 37,000.00');
      expect(body).toContain('Payment fee (0.4%)');
      expect(body).toContain('NGN 148.00');
      expect(body).toContain('NGN 37,148.00');
      expect(body).toContain('Nov-23-2026 to Nov-23-2027 (UTC), after your current plan');
      expect(body).toContain('12 Marina Road, Lagos');
      expect(body).toContain('afx_AAAAAAAAAAAAAAAAAAAAAAAA');
    }
    expect(mail.text).toMatch(/^Hello Ada,/);
  });

  it("escapes what a customer typed (the app's name) in the HTML", () => {
    expect(mail.html).not.toContain('<img src=x');
    expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt; Remit');
  });
});

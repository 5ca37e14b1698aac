// Issue 11: mails write dates in SPEC §9's one format and name the zone they mean, whatever the server's own zone.
import type { Rate } from '@afrofx/shared';
import { ratesMail, usageWarningMail } from '../src/mail/templates';

const rate: Rate = {
  _id: 'r1',
  market: 'bank',
  asset: 'dollar',
  base: 'naira',
  buy: 1500.5,
  sell: 1510.25,
  createdAt: '2026-11-23T06:00:00.000Z',
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

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  TERM_MONTHS,
  addMonths,
  canBuyPlan,
  endsWithinUpgradeWindow,
  isUpcomingPurchase,
  mayTakeCredit,
  prorateUpgrade,
  startOf,
  quotaPeriod,
  type PlanTerm,
} from './plan-lifecycle';

const now = new Date('2026-03-10T12:00:00Z');
const endingIn = (days: number, status: PlanTerm['status'] = 'active'): PlanTerm => ({
  status,
  expireAt: new Date(now.getTime() + days * 86_400_000).toISOString(),
});

describe('canBuyPlan (SPEC §4)', () => {
  it('allows a purchase with no plan, an ended or exhausted one, or one in its last 5 days', () => {
    expect(canBuyPlan(null, null, now)).toBe(true);
    expect(canBuyPlan(endingIn(-3, 'expired'), null, now)).toBe(true);
    expect(canBuyPlan(endingIn(100, 'exhausted'), null, now)).toBe(true);
    expect(canBuyPlan(endingIn(4), null, now)).toBe(true);
  });

  it('allows it on a plan still marked active whose end has passed: that plan has ended', () => {
    expect(canBuyPlan(endingIn(-1), null, now)).toBe(true);
    expect(isUpcomingPurchase(endingIn(-1), now)).toBe(false);
  });

  it('refuses it on an active plan with more than 5 days left, and whenever a plan is upcoming', () => {
    expect(canBuyPlan(endingIn(30), null, now)).toBe(false);
    expect(canBuyPlan(endingIn(4), endingIn(370, 'upcoming'), now)).toBe(false);
    expect(canBuyPlan(null, endingIn(370, 'upcoming'), now)).toBe(false);
  });

  it('makes a purchase in the last 5 days of a plan upcoming, and reads Dates as the server has them', () => {
    expect(isUpcomingPurchase(endingIn(4), now)).toBe(true);
    expect(isUpcomingPurchase(endingIn(6), now)).toBe(false);
    expect(
      endsWithinUpgradeWindow({ status: 'active', expireAt: new Date(now.getTime() + 86_400_000) }, now),
    ).toBe(true);
  });
});

describe('startOf: when a paid purchase starts (DESIGN §4)', () => {
  const running = (current: PlanTerm | null, upcoming: PlanTerm | null = null) => ({ current, upcoming });
  const purchase = { replacesCurrent: false };

  it('follows a plan still serving, and starts at once over an exhausted or ended one, in the last 5 days too', () => {
    expect(startOf(purchase, running(endingIn(3)), now)).toEqual({
      kind: 'upcoming',
      startsAt: new Date(endingIn(3).expireAt),
    });
    expect(startOf(purchase, running(endingIn(3, 'exhausted')), now)).toEqual({ kind: 'now' });
    expect(isUpcomingPurchase(endingIn(3, 'exhausted'), now)).toBe(false);
    expect(startOf(purchase, running(endingIn(-2, 'expired')), now)).toEqual({ kind: 'now' });
    expect(startOf(purchase, running(null), now)).toEqual({ kind: 'now' });
  });

  it('starts an upgrade at once, and never stacks a second upcoming plan', () => {
    expect(startOf({ replacesCurrent: true }, running(endingIn(200)), now)).toEqual({ kind: 'now' });
    expect(startOf(purchase, running(endingIn(3), endingIn(370, 'upcoming')), now)).toEqual({
      kind: 'would-stack',
    });
  });
});

describe('mayTakeCredit: a credit is spent once', () => {
  it('goes to the order holding it, or to any order once the holder expired or failed', () => {
    expect(
      mayTakeCredit('b', [
        { orderId: 'a', status: 'expired' },
        { orderId: 'b', status: 'pending' },
      ]),
    ).toBe(true);
    expect(
      mayTakeCredit('a', [
        { orderId: 'a', status: 'paid' },
        { orderId: 'b', status: 'failed' },
      ]),
    ).toBe(true);
  });

  it('is refused to an order while another holds it or has spent it', () => {
    expect(
      mayTakeCredit('a', [
        { orderId: 'a', status: 'paid' },
        { orderId: 'b', status: 'pending' },
      ]),
    ).toBe(false);
    expect(
      mayTakeCredit('a', [
        { orderId: 'a', status: 'paid' },
        { orderId: 'b', status: 'paid' },
      ]),
    ).toBe(false);
  });
});

describe('the term and its months', () => {
  it('runs 12 calendar months, clamping to a shorter month', () => {
    expect(TERM_MONTHS).toBe(12);
    expect(addMonths(new Date('2026-01-31T08:00:00Z'), 1).toISOString()).toBe('2026-02-28T08:00:00.000Z');
    expect(addMonths(new Date('2026-03-10T12:00:00Z'), TERM_MONTHS).toISOString()).toBe(
      '2027-03-10T12:00:00.000Z',
    );
  });

  it('counts the month of the term that now falls in', () => {
    const start = new Date('2026-01-15T00:00:00Z');
    const period = quotaPeriod(start, addMonths(start, TERM_MONTHS), new Date('2026-03-20T00:00:00Z'));
    expect(period).toEqual({
      index: 2,
      start: new Date('2026-03-15T00:00:00Z'),
      end: new Date('2026-04-15T00:00:00Z'),
    });
  });
});

/**
 * One owner: these rules live in shared/ only. A server or web file that defines one of them again (or writes the
 * term or the fee as a literal) fails here, naming the file.
 */
describe('no copies of the plan rules outside shared/', () => {
  const root = path.resolve(__dirname, '../..');
  const sources = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory())
        return entry.name === 'node_modules' || entry.name === 'dist' ? [] : sources(full);
      return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
    });
  const files = [...sources(path.join(root, 'server/src')), ...sources(path.join(root, 'web/src'))];
  const copies: Array<[string, RegExp]> = [
    ['canBuyPlan', /function canBuyPlan\b|const canBuyPlan\s*=/],
    ['isUpcomingPurchase', /function isUpcomingPurchase\b|const isUpcomingPurchase\s*=/],
    [
      'the upgrade window',
      /UPGRADE_WINDOW_DAYS\s*=|function (endsWithinUpgradeWindow|expiresWithinUpgradeWindow)\b/,
    ],
    ['TERM_MONTHS', /TERM_MONTHS\s*=|(runs|lasts) for 12 months/],
    ['the fee', /\b1\.004\b|\b1004n\b|FEE_PER_THOUSAND\s*=/],
    ['addMonths', /function addMonths\b|const addMonths\s*=/],
    ['quotaPeriod', /function quotaPeriod\b|const quotaPeriod\s*=/],
    ['the price', /function planPrice(Minor)?\b|const planPrice(Minor)?\s*=/],
  ];

  it('finds the source files it checks', () => {
    expect(files.length).toBeGreaterThan(50);
  });

  it.each(copies)('%s is defined in shared/ only', (_rule, pattern) => {
    expect(
      files.filter((file) => pattern.test(readFileSync(file, 'utf8'))).map((f) => path.relative(root, f)),
    ).toEqual([]);
  });
});

describe('prorateUpgrade', () => {
  const startsAt = new Date('2026-01-01T00:00:00Z');
  const expireAt = addMonths(startsAt, TERM_MONTHS);
  const starter = { planId: 'starter', amount: 120, startsAt, expireAt };
  const growth = { _id: 'growth', amount: 480 };

  it('credits the whole price on the first moment of the term', () => {
    expect(prorateUpgrade(starter, growth, startsAt)).toEqual({
      kind: 'upgrade',
      priceCents: 48_000,
      creditCents: 12_000,
      dueCents: 36_000,
    });
  });

  it('credits the unused share to the cent below mid-term', () => {
    // 2026 has 365 days: after 100 days, 265/365 of $120 is $87.123…
    const mid = new Date(startsAt.getTime() + 100 * 86_400_000);
    expect(prorateUpgrade(starter, growth, mid)).toMatchObject({ creditCents: 8712, dueCents: 39_288 });
  });

  it('credits almost nothing on the last day, and nothing once the term has ended', () => {
    const lastSecond = new Date(expireAt.getTime() - 1000);
    expect(prorateUpgrade(starter, growth, lastSecond)).toMatchObject({ creditCents: 0, dueCents: 48_000 });
    const lastDay = new Date(expireAt.getTime() - 86_400_000);
    expect(prorateUpgrade(starter, growth, lastDay)).toMatchObject({ creditCents: 32, dueCents: 47_968 });
    expect(prorateUpgrade(starter, growth, expireAt)).toEqual({ kind: 'ended' });
  });

  it('is no upgrade to the same plan, an equal price or a cheaper plan', () => {
    const mid = new Date('2026-06-01T00:00:00Z');
    expect(prorateUpgrade(starter, { _id: 'starter', amount: 999 }, mid)).toEqual({ kind: 'not-higher' });
    expect(prorateUpgrade(starter, { _id: 'other', amount: 120 }, mid)).toEqual({ kind: 'not-higher' });
    expect(prorateUpgrade({ ...starter, amount: 480 }, { _id: 'starter', amount: 120 }, mid)).toEqual({
      kind: 'not-higher',
    });
  });

  it('credits a free plan nothing', () => {
    expect(prorateUpgrade({ ...starter, amount: 0 }, growth, startsAt)).toMatchObject({
      creditCents: 0,
      dueCents: 48_000,
    });
  });
});

import { FALLBACK_USD_RATE, baseSymbol } from './constants';
import {
  formatUtcDate,
  convertFunds,
  formatCalendarDate,
  formatDateTime,
  formatDay,
  formatNumber,
  isSameDay,
} from './format';

// Dates are built from local parts or given a zone, so the expectations hold in every time zone.

describe('formatNumber (SPEC §9: US format, 2 fraction digits by default)', () => {
  it.each([
    [1234.5, '1,234.50'],
    [0, '0.00'],
    [1465, '1,465.00'],
    [1234567.891, '1,234,567.89'],
    [-12.3, '-12.30'],
    ['1470.25', '1,470.25'],
  ])('formats %p as %p', (value, expected) => {
    expect(formatNumber(value)).toBe(expected);
  });

  it('takes another number of fraction digits', () => {
    expect(formatNumber(17.3456, 4)).toBe('17.3456');
    expect(formatNumber(1234.5, 0)).toBe('1,235');
  });

  it('answers an empty string for something that is not a number', () => {
    expect(formatNumber('lots')).toBe('');
    expect(formatNumber(NaN)).toBe('');
  });
});

describe('formatDateTime (SPEC §9: MMM-DD-YYYY h:mm:ss A, then the time zone)', () => {
  it.each([
    ['2026-11-23T04:25:04Z', 'Africa/Lagos', 'Nov-23-2026 5:25:04 AM GMT+1'],
    ['2026-11-23T04:25:04Z', 'UTC', 'Nov-23-2026 4:25:04 AM UTC'],
    ['2024-01-05T10:04:09Z', 'Africa/Nairobi', 'Jan-05-2024 1:04:09 PM GMT+3'],
    ['2025-12-31T22:00:00Z', 'Africa/Johannesburg', 'Jan-01-2026 12:00:00 AM GMT+2'],
    ['2025-06-01T12:00:05Z', 'Africa/Accra', 'Jun-01-2025 12:00:05 PM GMT'],
    ['2026-11-23T04:25:04Z', 'America/New_York', 'Nov-22-2026 11:25:04 PM EST'],
    ['2026-07-01T04:25:04Z', 'America/New_York', 'Jul-01-2026 12:25:04 AM EDT'],
  ])('formats %s in %s as %s', (iso, zone, expected) => {
    expect(formatDateTime(iso, zone)).toBe(expected);
  });

  it('takes a Date, an ISO string or a timestamp alike', () => {
    const date = new Date('2024-02-29T23:59:59Z');
    expect(formatDateTime(date, 'UTC')).toBe('Feb-29-2024 11:59:59 PM UTC');
    expect(formatDateTime(date.toISOString(), 'UTC')).toBe('Feb-29-2024 11:59:59 PM UTC');
    expect(formatDateTime(date.getTime(), 'UTC')).toBe('Feb-29-2024 11:59:59 PM UTC');
  });

  it("uses the viewer's own zone by default", () => {
    // Jest hands tests a copy of process.env, so TZ cannot be switched here: compare with the runtime's own zone.
    const ownZone = new Intl.DateTimeFormat().resolvedOptions().timeZone;
    const moment = '2026-11-23T04:25:04Z';
    expect(formatDateTime(moment)).toBe(formatDateTime(moment, ownZone));
    expect(formatDay(moment)).toBe(formatDay(moment, ownZone));
  });

  it('answers an empty string for an invalid date', () => {
    expect(formatDateTime('not a date')).toBe('');
  });
});

describe('formatDay (the day of formatDateTime)', () => {
  it('gives MMM-DD-YYYY of the day in the zone', () => {
    expect(formatDay('2026-11-23T23:30:00Z', 'UTC')).toBe('Nov-23-2026');
    expect(formatDay('2026-11-23T23:30:00Z', 'Africa/Lagos')).toBe('Nov-24-2026');
  });

  it('answers an empty string for an invalid date', () => {
    expect(formatDay('never', 'UTC')).toBe('');
  });
});

describe('formatCalendarDate (SPEC §9: YYYY-MM-DD)', () => {
  it('formats the local calendar day', () => {
    expect(formatCalendarDate(new Date(2024, 0, 5, 23, 59))).toBe('2024-01-05');
    expect(formatCalendarDate(new Date(2026, 10, 22, 0, 0))).toBe('2026-11-22');
  });

  it('answers an empty string for an invalid date', () => {
    expect(formatCalendarDate('never')).toBe('');
  });
});

describe('formatUtcDate', () => {
  it('gives the UTC calendar day, whatever the local time zone', () => {
    expect(formatUtcDate(new Date(Date.UTC(2026, 10, 22, 23, 59, 59)))).toBe('2026-11-22');
    expect(formatUtcDate(new Date(Date.UTC(2026, 0, 1, 0, 0, 0)))).toBe('2026-01-01');
  });
});

describe('isSameDay', () => {
  it('compares local calendar days', () => {
    expect(isSameDay(new Date(2024, 0, 5, 0, 1), new Date(2024, 0, 5, 23, 59))).toBe(true);
    expect(isSameDay(new Date(2024, 0, 5, 23, 59), new Date(2024, 0, 6, 0, 1))).toBe(false);
  });
});

describe('convertFunds (SPEC §9: multiply, keep 2 decimals, take the integer part)', () => {
  it.each([
    [10.5, 740.129, 7771],
    [100, FALLBACK_USD_RATE, 74000],
    [1.99, 1.5, 2],
    // Rounding to 2 decimals first carries 7770.999999 up to 7771.
    [3, 2590.333333, 7771],
    [0.3, 3, 0],
  ])('converts %p at %p to %p', (amount, rate, expected) => {
    expect(convertFunds(amount, rate)).toBe(expected);
  });
});

describe('baseSymbol (SPEC §3)', () => {
  it.each([
    ['naira', '₦'],
    ['kenyan-shilling', 'KSh'],
    ['rand', 'R'],
    ['cedis', 'GH₵'],
    ['franc', '₦'],
    ['', '₦'],
  ])('shows %p as %p', (base, symbol) => {
    expect(baseSymbol(base)).toBe(symbol);
  });
});

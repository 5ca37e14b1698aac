// SPEC §9 number, date and money helpers, pure so that server (mails, CSV) and web render alike.

/** US format with exactly 2 fraction digits by default. */
export function formatNumber(value: number | string, fractionDigits = 2): string {
  const n = typeof value === 'string' ? Number(value) : value;
  if (!Number.isFinite(n)) return '';
  return n.toLocaleString('en-US', {
    minimumFractionDigits: fractionDigits,
    maximumFractionDigits: fractionDigits,
  });
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');

function toDate(value: Date | string | number): Date {
  return value instanceof Date ? value : new Date(value);
}

// Building an Intl formatter is costly and a table formats a date per row: one formatter per zone.
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

function dateTimeFormat(timeZone: string | undefined): Intl.DateTimeFormat {
  const key = timeZone ?? '';
  let format = dateTimeFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      hourCycle: 'h12',
      timeZoneName: 'short',
    });
    dateTimeFormats.set(key, format);
  }
  return format;
}

interface DateTimeParts {
  day: string;
  time: string;
  zone: string;
}

function dateTimeParts(value: Date | string | number, timeZone: string | undefined): DateTimeParts | null {
  const d = toDate(value);
  if (Number.isNaN(d.getTime())) return null;
  const part: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const { type, value: text } of dateTimeFormat(timeZone).formatToParts(d)) part[type] = text;
  return {
    day: `${MONTHS[Number(part.month) - 1]}-${pad(Number(part.day))}-${part.year}`,
    time: `${Number(part.hour)}:${part.minute}:${part.second} ${part.dayPeriod}`,
    zone: part.timeZoneName ?? '',
  };
}

/**
 * SPEC §9's one date format, "MMM-DD-YYYY h:mm:ss A", followed by the zone's short name (GMT+1, UTC, EST) so that a
 * reader never has to guess whose clock it is: Nov-23-2026 5:25:04 AM GMT+1. `timeZone` (an IANA name) defaults to
 * the viewer's own zone; the server passes the zone it means (mails say UTC).
 */
/** A payment amount as receipts print it: the ISO currency code and two decimals (USD 50.20, NGN 37,148.00). */
export function formatAmount(amount: number, currency: string): string {
  return `${currency} ${formatNumber(amount, 2)}`;
}

export function formatDateTime(value: Date | string | number, timeZone?: string): string {
  const parts = dateTimeParts(value, timeZone);
  return parts ? `${parts.day} ${parts.time} ${parts.zone}` : '';
}

/** The day part of formatDateTime, MMM-DD-YYYY, in `timeZone` (the viewer's by default). */
export function formatDay(value: Date | string | number, timeZone?: string): string {
  return dateTimeParts(value, timeZone)?.day ?? '';
}

/** YYYY-MM-DD calendar date. */
export function formatCalendarDate(value: Date | string | number): string {
  const d = toDate(value);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** YYYY-MM-DD of the UTC day: the server's day for request analytics, history and file names. */
export function formatUtcDate(value: Date): string {
  return value.toISOString().slice(0, 10);
}

/** SPEC §9: fund conversion multiplies by the rate, keeps 2 decimals, then takes the integer part. */
export function convertFunds(amount: number, rate: number): number {
  return Math.trunc(Number((amount * rate).toFixed(2)));
}

/** True when both dates fall on the same calendar day in `timeZone` (the viewer's by default). */
export function isSameDay(a: Date | string, b: Date | string, timeZone?: string): boolean {
  return formatDay(a, timeZone) === formatDay(b, timeZone);
}

/** A plan named in a sentence: "the Free plan", never "the free Free plan" nor "the Basic plan plan". */
export function planTitle(name: string): string {
  return /\bplan$/i.test(name.trim()) ? name.trim() : `${name.trim()} plan`;
}

/** SPEC §9: an NGN receipt names the dollar rate its price was worked out with, and when. */
export function receiptRateLine(exchangeRate: { rate: number; at: string }): string {
  return `₦${formatNumber(exchangeRate.rate)} per US dollar (Cash market buy rate), as of ${formatDateTime(exchangeRate.at, 'UTC')}`;
}

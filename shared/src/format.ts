// SPEC §9 number, date and money helpers, pure so that server (mails, CSV) and web render alike.
import { PAYMENT_FEE_MULTIPLIER } from './constants';

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

function clock(d: Date): string {
  const h = d.getHours() % 12 || 12;
  return `${h}:${pad(d.getMinutes())}:${pad(d.getSeconds())} ${d.getHours() < 12 ? 'AM' : 'PM'}`;
}

/** MMM-DD-YYYY h:mm:ss A, in the viewer's local time. */
export function formatDateTime(value: Date | string | number): string {
  const d = toDate(value);
  if (Number.isNaN(d.getTime())) return '';
  return `${MONTHS[d.getMonth()]}-${pad(d.getDate())}-${d.getFullYear()} ${clock(d)}`;
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

/** Last-updated stamp: month-day-year plus time. */
export function formatLastUpdated(value: Date | string | number): string {
  const d = toDate(value);
  if (Number.isNaN(d.getTime())) return '';
  return `${pad(d.getMonth() + 1)}-${pad(d.getDate())}-${d.getFullYear()} ${clock(d)}`;
}

/** SPEC §9: fund conversion multiplies by the rate, keeps 2 decimals, then takes the integer part. */
export function convertFunds(amount: number, rate: number): number {
  return Math.trunc(Number((amount * rate).toFixed(2)));
}

/** SPEC §9: the 0.4 percent payment fee. */
export function withPaymentFee(amount: number): number {
  return amount * PAYMENT_FEE_MULTIPLIER;
}

/** True when both dates fall on the same local calendar day. */
export function isSameDay(a: Date | string, b: Date | string): boolean {
  return formatCalendarDate(a) === formatCalendarDate(b);
}

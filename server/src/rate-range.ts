// The from..to of a history or candle request: defaults, order and bounds (clear 400s), and for candles the
// widening to whole buckets, so a week's candle holds the whole week whatever day `from` names.
import { formatUtcDate, MAX_CANDLE_DAYS, MAX_HISTORY_DAYS, type CandleInterval } from '@afrofx/shared';
import { badRequest } from './errors';

const DAY_MS = 86_400_000;
const dayOf = (date: string) => Date.parse(`${date}T00:00:00Z`);
const shift = (date: string, days: number) => formatUtcDate(new Date(dayOf(date) + days * DAY_MS));

export interface DayRange {
  from: string;
  to: string;
}

function checked(from: string, to: string, maxDays: number): DayRange {
  const span = (dayOf(to) - dayOf(from)) / DAY_MS;
  if (span < 0) throw badRequest('The from date must not be after the to date.');
  if (span >= maxDays) throw badRequest(`The from..to range may span at most ${maxDays} days.`);
  return { from, to };
}

/** History: from..to inclusive, by default the 30 days up to today. */
export function historyRange(query: { from?: string; to?: string }, today: Date): DayRange {
  const to = query.to ?? formatUtcDate(today);
  const from = query.from ?? shift(to, -29);
  return checked(from, to, MAX_HISTORY_DAYS);
}

/** The first day of the bucket holding `date`: the day, the ISO week's Monday, or the month's first. */
export function bucketStart(interval: CandleInterval, date: string): string {
  const day = new Date(dayOf(date));
  if (interval === 'week') return shift(date, -((day.getUTCDay() + 6) % 7));
  if (interval === 'month') return `${date.slice(0, 7)}-01`;
  return date;
}

/** The first day of the bucket after the one starting on `start`. */
export function nextBucket(interval: CandleInterval, start: string): string {
  if (interval === 'day') return shift(start, 1);
  if (interval === 'week') return shift(start, 7);
  const day = new Date(dayOf(start));
  return formatUtcDate(new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth() + 1, 1)));
}

const DEFAULT_BUCKETS: Record<CandleInterval, number> = { day: 30, week: 26, month: 12 };

/**
 * Candles: by default the last 30 days, 26 weeks or 12 months up to today. The bound applies to from..to as asked;
 * the answer then covers whole buckets: from moves back to its bucket's start and to on to its bucket's end.
 */
export function candleRange(
  interval: CandleInterval,
  query: { from?: string; to?: string },
  today: Date,
): DayRange {
  const to = query.to ?? formatUtcDate(today);
  let from = query.from;
  if (!from) {
    from = bucketStart(interval, to);
    for (let i = 1; i < DEFAULT_BUCKETS[interval]; i++) from = bucketStart(interval, shift(from, -1));
  }
  checked(from, to, MAX_CANDLE_DAYS[interval]);
  return {
    from: bucketStart(interval, from),
    to: shift(nextBucket(interval, bucketStart(interval, to)), -1),
  };
}

// When a daily job runs, on a time zone's wall clock: one reading of the cron pattern for both queue drivers (BullMQ's
// job scheduler takes the same pattern and time zone, and cron-parser is what it reads them with).
import { CronExpressionParser } from 'cron-parser';
import type { DailyTime } from '../config';

/** The cron pattern of a daily time, as BullMQ's job scheduler takes it (with the time zone beside it). */
export const dailyPattern = ({ hour, minute }: DailyTime) => `${minute} ${hour} * * *`;

const runs = (daily: DailyTime, from: number) =>
  CronExpressionParser.parse(dailyPattern(daily), { currentDate: new Date(from), tz: daily.timeZone });

/** The first run of a daily time strictly after `afterMs`. */
export const nextDailyRun = (daily: DailyTime, afterMs: number) => runs(daily, afterMs).next().getTime();

/** The latest run of a daily time at or before `atMs`: the run that a job started late, or retried, belongs to. */
export const latestDailyRun = (daily: DailyTime, atMs: number) =>
  runs(daily, atMs + 1)
    .prev()
    .getTime();

/** The calendar date (YYYY-MM-DD) of an instant on the time zone's wall clock. */
export const localDate = (timeZone: string, atMs: number) =>
  // The en-CA locale writes dates as YYYY-MM-DD.
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    atMs,
  );

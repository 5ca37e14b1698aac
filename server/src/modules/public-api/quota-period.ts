// DESIGN §4: the monthly counter resets each month of the term, counted from the subscription's start.

/** The same day `months` later, or the month's last day when it is shorter (31 Jan + 1 month = 28/29 Feb). */
export function addMonths(date: Date, months: number): Date {
  const result = new Date(date);
  const day = result.getUTCDate();
  result.setUTCDate(1);
  result.setUTCMonth(result.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(result.getUTCFullYear(), result.getUTCMonth() + 1, 0)).getUTCDate();
  result.setUTCDate(Math.min(day, lastDay));
  return result;
}

export interface QuotaPeriod {
  index: number;
  start: Date;
  end: Date;
}

export function quotaPeriod(startsAt: Date, expireAt: Date, now: Date): QuotaPeriod {
  let index =
    (now.getUTCFullYear() - startsAt.getUTCFullYear()) * 12 + (now.getUTCMonth() - startsAt.getUTCMonth());
  if (addMonths(startsAt, index) > now) index--;
  index = Math.max(index, 0);
  const end = addMonths(startsAt, index + 1);
  return { index, start: addMonths(startsAt, index), end: end < expireAt ? end : expireAt };
}

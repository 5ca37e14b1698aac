import { formatNumber, type RequestAnalytics } from '@afrofx/shared';
import { useMemo } from 'react';
import { TimeChart, type ChartSeries } from '../../../components/TimeChart';

type Day = RequestAnalytics['daily'][number];

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const BAR = '#167753';
const TODAY = '#e8b13a';

/** 'YYYY-MM-DD' as 'Nov 22', read as written (the server's days are UTC days). */
export function dayLabel(day: string): string {
  const [, month, date] = day.split('-').map(Number);
  return `${MONTHS[(month ?? 1) - 1]} ${date}`;
}

/** The screen-reader summary of the chart. */
export function requestsSummary(daily: ReadonlyArray<Day>): string {
  const first = daily.at(0);
  const last = daily.at(-1);
  const busiest = daily.reduce<Day | undefined>(
    (best, day) => (!best || day.count > best.count ? day : best),
    undefined,
  );
  if (!first || !last || !busiest) return 'No request data.';
  const total = daily.reduce((sum, day) => sum + day.count, 0);
  return `Requests per day from ${dayLabel(first.day)} to ${dayLabel(last.day)}: ${formatNumber(total, 0)} in all, at most ${formatNumber(busiest.count, 0)} on ${dayLabel(busiest.day)}.`;
}

/** Requests per day as bars, today's in gold. */
export function RequestsChart({ daily }: { daily: ReadonlyArray<Day> }) {
  const series = useMemo<ChartSeries[]>(
    () => [
      {
        kind: 'histogram',
        name: 'Requests',
        color: BAR,
        points: daily.map((day, index) => ({
          time: day.day,
          value: day.count,
          ...(index === daily.length - 1 ? { color: TODAY } : {}),
        })),
      },
    ],
    [daily],
  );
  const total = daily.reduce((sum, day) => sum + day.count, 0);

  return (
    <div className="relative w-full">
      <TimeChart series={series} label={requestsSummary(daily)} height={260} precision={0} />
      {total === 0 && (
        <p className="pointer-events-none absolute inset-x-0 top-1/2 -translate-y-1/2 text-center text-sm font-medium text-slate-500">
          No requests in the last 30 days yet.
        </p>
      )}
      {/* Tables ignore the sr-only clip, so a clipped box holds it. */}
      <div className="sr-only">
        <table>
          <caption>Requests per day (UTC)</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Requests</th>
            </tr>
          </thead>
          <tbody>
            {daily.map((day) => (
              <tr key={day.day}>
                <td>{day.day}</td>
                <td>{formatNumber(day.count, 0)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

import { formatNumber, type RequestAnalytics } from '@afrofx/shared';
import { useLayoutEffect, useRef, useState } from 'react';

type Day = RequestAnalytics['daily'][number];

const HEIGHT = 260;
const PADDING = { top: 16, right: 8, bottom: 30, left: 48 };
const FALLBACK_WIDTH = 720;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** 'YYYY-MM-DD' as 'Nov 22', read as written (the server's days are UTC days). */
export function dayLabel(day: string): string {
  const [, month, date] = day.split('-').map(Number);
  return `${MONTHS[(month ?? 1) - 1]} ${date}`;
}

/** The smallest round axis maximum, split into four even steps, that holds `max`. */
export function axisMax(max: number): number {
  if (max <= 0) return 4;
  const rough = max / 4;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 2.5, 5, 10].map((factor) => factor * magnitude).find((candidate) => candidate >= rough);
  return Math.max(4, (step ?? 10 * magnitude) * 4);
}

function useWidth<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(FALLBACK_WIDTH);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    setWidth(element.clientWidth || FALLBACK_WIDTH);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(entry.contentRect.width || FALLBACK_WIDTH);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}

/** Requests per day as an SVG bar chart, sized to its container; today's bar is gold. */
export function RequestsChart({ daily }: { daily: ReadonlyArray<Day> }) {
  const [containerRef, width] = useWidth<HTMLDivElement>();
  const [hovered, setHovered] = useState<number | null>(null);

  const plotWidth = Math.max(width - PADDING.left - PADDING.right, 1);
  const plotHeight = HEIGHT - PADDING.top - PADDING.bottom;
  const highest = Math.max(0, ...daily.map((day) => day.count));
  const top = axisMax(highest);
  const ticks = [0, 1, 2, 3, 4].map((index) => (top / 4) * index);
  const band = plotWidth / Math.max(daily.length, 1);
  const barWidth = Math.max(2, Math.min(band * 0.64, 28));
  const labelEvery = width < 480 ? 7 : 5;
  const y = (value: number) => PADDING.top + plotHeight - (value / top) * plotHeight;
  const total = daily.reduce((sum, day) => sum + day.count, 0);
  const busiest = daily.reduce<Day | undefined>(
    (best, day) => (!best || day.count > best.count ? day : best),
    undefined,
  );
  const first = daily.at(0);
  const last = daily.at(-1);
  const summary =
    first && last && busiest
      ? `Requests per day from ${dayLabel(first.day)} to ${dayLabel(last.day)}: ${formatNumber(total, 0)} in all, at most ${formatNumber(busiest.count, 0)} on ${dayLabel(busiest.day)}.`
      : 'No request data.';
  const hoveredDay = hovered === null ? undefined : daily[hovered];

  return (
    <div ref={containerRef} className="relative w-full">
      <svg
        width={width}
        height={HEIGHT}
        viewBox={`0 0 ${width} ${HEIGHT}`}
        role="img"
        aria-label={summary}
        className="block"
        onMouseLeave={() => setHovered(null)}
      >
        {ticks.map((tick) => (
          <g key={tick}>
            <line
              x1={PADDING.left}
              x2={width - PADDING.right}
              y1={y(tick)}
              y2={y(tick)}
              className={tick === 0 ? 'stroke-slate-300' : 'stroke-slate-100'}
              strokeWidth={1}
            />
            <text
              x={PADDING.left - 10}
              y={y(tick)}
              textAnchor="end"
              dominantBaseline="middle"
              className="fill-slate-400 text-[11px] tabular-nums"
            >
              {formatNumber(tick, 0)}
            </text>
          </g>
        ))}
        {daily.map((day, index) => {
          const x = PADDING.left + index * band;
          const height = Math.max(plotHeight - (y(day.count) - PADDING.top), day.count > 0 ? 2 : 0);
          const isToday = index === daily.length - 1;
          const showLabel = index % labelEvery === 0 || (isToday && (daily.length - 1) % labelEvery >= 3);
          return (
            <g key={day.day}>
              <rect
                x={x + (band - barWidth) / 2}
                y={PADDING.top + plotHeight - height}
                width={barWidth}
                height={height}
                rx={Math.min(3, barWidth / 3)}
                className={
                  hovered === index ? 'fill-brand-800' : isToday ? 'fill-gold-400' : 'fill-brand-600'
                }
              />
              {showLabel && (
                <text
                  x={x + band / 2}
                  y={HEIGHT - 8}
                  textAnchor="middle"
                  className="fill-slate-500 text-[11px]"
                >
                  {isToday ? 'Today' : dayLabel(day.day)}
                </text>
              )}
              <rect
                x={x}
                y={PADDING.top}
                width={band}
                height={plotHeight}
                fill="transparent"
                onMouseEnter={() => setHovered(index)}
              />
            </g>
          );
        })}
      </svg>
      {total === 0 && (
        <p className="pointer-events-none absolute inset-x-0 top-1/2 -translate-y-1/2 text-center text-sm font-medium text-slate-500">
          No requests in the last 30 days yet.
        </p>
      )}
      {hoveredDay && hovered !== null && (
        <div
          className="pointer-events-none absolute top-0 z-10 -translate-x-1/2 rounded-lg bg-slate-900 px-2.5 py-1.5 text-xs whitespace-nowrap text-white shadow-lg"
          style={{
            left: Math.min(Math.max(PADDING.left + hovered * band + band / 2, PADDING.left + 40), width - 48),
          }}
          aria-hidden="true"
        >
          <span className="font-semibold">{dayLabel(hoveredDay.day)}</span> ·{' '}
          {formatNumber(hoveredDay.count, 0)} {hoveredDay.count === 1 ? 'request' : 'requests'}
        </div>
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

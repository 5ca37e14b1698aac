// The project's one charting library, TradingView's lightweight-charts, loaded on first draw: a page without a chart
// never downloads it, and every chart draws through this component.
import type { AutoscaleInfo, IChartApi } from 'lightweight-charts';
import { useEffect, useRef, useState } from 'react';
import { cn } from '../lib/cn';
import { Spinner } from './Spinner';

/** A UTC calendar day, 'YYYY-MM-DD', as the server answers them. */
type Day = string;

export type ChartSeries =
  | { kind: 'line'; name: string; color: string; points: ReadonlyArray<{ time: Day; value: number }> }
  | {
      kind: 'histogram';
      name: string;
      color: string;
      points: ReadonlyArray<{ time: Day; value: number; color?: string }>;
    }
  | {
      kind: 'candles';
      name: string;
      points: ReadonlyArray<{ time: Day; open: number; high: number; low: number; close: number }>;
    };

interface TimeChartProps {
  series: ReadonlyArray<ChartSeries>;
  /** What the chart shows, for screen readers (the canvas says nothing). */
  label: string;
  height: number;
  /** Digits after the decimal point on the price scale and in the crosshair label. */
  precision?: number;
  className?: string;
}

const UP = '#167753';
const DOWN = '#c2410c';

export function TimeChart({ series, label, height, precision = 2, className }: TimeChartProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'loading' | 'drawn' | 'failed'>('loading');

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    let chart: IChartApi | undefined;
    let cancelled = false;
    import('lightweight-charts')
      .then((lib) => {
        if (cancelled) return;
        chart = lib.createChart(container, {
          autoSize: true,
          height,
          layout: {
            background: { color: 'transparent' },
            textColor: '#64748b',
            fontFamily: getComputedStyle(container).fontFamily,
          },
          grid: { vertLines: { visible: false }, horzLines: { color: '#f1f5f9' } },
          rightPriceScale: { borderVisible: false },
          timeScale: { borderVisible: false },
          localization: { locale: 'en-US' },
        });
        const priceFormat = { type: 'price' as const, precision, minMove: 10 ** -precision };
        for (const item of series) {
          if (item.kind === 'line') {
            chart
              .addSeries(lib.LineSeries, { color: item.color, lineWidth: 2, title: item.name, priceFormat })
              .setData([...item.points]);
          } else if (item.kind === 'histogram') {
            chart
              // Counts per day: the axis says enough, a last-value line would only cover bars.
              .addSeries(lib.HistogramSeries, {
                color: item.color,
                priceFormat,
                priceLineVisible: false,
                lastValueVisible: false,
                // Counts are never negative: the axis starts at 0, and a month of nothing runs 0 to 1, not −6 to 6.
                autoscaleInfoProvider: (original: () => AutoscaleInfo | null) => {
                  const max = original()?.priceRange?.maxValue ?? 0;
                  return { priceRange: { minValue: 0, maxValue: Math.max(max, 1) } };
                },
              })
              .setData([...item.points]);
          } else {
            chart
              .addSeries(lib.CandlestickSeries, {
                title: item.name,
                priceFormat,
                upColor: UP,
                borderUpColor: UP,
                wickUpColor: UP,
                downColor: DOWN,
                borderDownColor: DOWN,
                wickDownColor: DOWN,
              })
              .setData([...item.points]);
          }
        }
        chart.timeScale().fitContent();
        setState('drawn');
      })
      .catch(() => {
        if (!cancelled) setState('failed');
      });
    return () => {
      cancelled = true;
      chart?.remove();
    };
  }, [series, height, precision]);

  return (
    <div className={cn('relative w-full', className)} style={{ height }}>
      {/* A figure, not an img: the library's attribution link inside must stay a reachable link. */}
      <div ref={containerRef} role="figure" aria-label={label} className="absolute inset-0" />
      {state === 'loading' && (
        <div className="absolute inset-0 flex items-center justify-center">
          <Spinner label="Drawing the chart" className="text-brand-600 [&_svg]:size-8" />
        </div>
      )}
      {state === 'failed' && (
        <p className="absolute inset-0 flex items-center justify-center text-center text-sm font-medium text-slate-500">
          The chart could not be drawn in this browser.
        </p>
      )}
    </div>
  );
}

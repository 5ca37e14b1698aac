import {
  ASSET_DISPLAY,
  BASE_DISPLAY,
  formatNumber,
  MARKET_LABELS,
  type Asset,
  type Base,
  type Market,
  type RateCandle,
  type RateHistoryPoint,
} from '@afrofx/shared';
import { useMemo, useState } from 'react';
import { errorMessage } from '../../../api/error-message';
import { EmptyState } from '../../../components/EmptyState';
import { ErrorState } from '../../../components/ErrorState';
import { Spinner } from '../../../components/Spinner';
import { TimeChart, type ChartSeries } from '../../../components/TimeChart';
import { useFetchRateCandlesQuery, useFetchRateHistoryQuery } from '../public-api';

export type ChartView = 'lines' | 'candles';
export type ChartSide = 'buy' | 'sell';

export interface RateChartSelection {
  market: Market;
  base: Base;
  asset: Asset;
  /** The period: the last 30, 90 or 365 UTC days, today included. */
  days: number;
  view: ChartView;
  side: ChartSide;
}

const BUY = '#167753';
const SELL = '#d99a1e';
const HEIGHT = 340;
const DAY_MS = 86_400_000;

const utcDay = (time: number) => new Date(time).toISOString().slice(0, 10);

function pairName({ market, base, asset }: RateChartSelection) {
  return `${MARKET_LABELS[market]} ${ASSET_DISPLAY[asset].code}/${BASE_DISPLAY[base].code}`;
}

function ChartFrame({ children }: { children: React.ReactNode }) {
  return (
    <div className="flex items-center justify-center" style={{ minHeight: HEIGHT }}>
      {children}
    </div>
  );
}

function Legend({ items }: { items: ReadonlyArray<{ label: string; color: string }> }) {
  return (
    <ul className="flex flex-wrap gap-x-5 gap-y-1 text-sm text-slate-600">
      {items.map((item) => (
        <li key={item.label} className="flex items-center gap-2">
          <span className="h-1 w-5 rounded-full" style={{ background: item.color }} aria-hidden="true" />
          {item.label}
        </li>
      ))}
    </ul>
  );
}

function HistoryLines({ selection, points }: { selection: RateChartSelection; points: RateHistoryPoint[] }) {
  const series = useMemo<ChartSeries[]>(
    () => [
      { kind: 'line', name: 'Buy', color: BUY, points: points.map((p) => ({ time: p.day, value: p.buy })) },
      {
        kind: 'line',
        name: 'Sell',
        color: SELL,
        points: points.map((p) => ({ time: p.day, value: p.sell })),
      },
    ],
    [points],
  );
  const first = points[0]!;
  const last = points.at(-1)!;
  const symbol = BASE_DISPLAY[selection.base].symbol;
  const label = `${pairName(selection)}, the last ${selection.days} days: buy from ${symbol}${formatNumber(first.buy)} on ${first.day} to ${symbol}${formatNumber(last.buy)} on ${last.day}; sell from ${symbol}${formatNumber(first.sell)} to ${symbol}${formatNumber(last.sell)}.`;
  return (
    <>
      <Legend
        items={[
          { label: 'Buy', color: BUY },
          { label: 'Sell', color: SELL },
        ]}
      />
      <TimeChart series={series} label={label} height={HEIGHT} className="mt-3" />
      <div className="sr-only">
        <table>
          <caption>{`${pairName(selection)}: last rate of each day (UTC)`}</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Buy</th>
              <th scope="col">Sell</th>
            </tr>
          </thead>
          <tbody>
            {points.map((p) => (
              <tr key={p.day}>
                <td>{p.day}</td>
                <td>{formatNumber(p.buy)}</td>
                <td>{formatNumber(p.sell)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function Candles({
  selection,
  candles,
  interval,
}: {
  selection: RateChartSelection;
  candles: RateCandle[];
  interval: 'day' | 'week';
}) {
  const { side } = selection;
  const series = useMemo<ChartSeries[]>(
    () => [
      {
        kind: 'candles',
        name: side === 'buy' ? 'Buy' : 'Sell',
        points: candles.map((c) =>
          side === 'buy'
            ? { time: c.start, open: c.buyOpen, high: c.buyHigh, low: c.buyLow, close: c.buyClose }
            : { time: c.start, open: c.sellOpen, high: c.sellHigh, low: c.sellLow, close: c.sellClose },
        ),
      },
    ],
    [candles, side],
  );
  const entries = candles.reduce((sum, c) => sum + c.entries, 0);
  const label = `${pairName(selection)}, ${side} candles per ${interval} over the last ${selection.days} days, from ${candles.length} ${interval === 'day' ? 'days' : 'weeks'} with ${entries} rate entries.`;
  return (
    <>
      <p className="text-sm text-slate-600">
        {side === 'buy' ? 'Buy' : 'Sell'} rate, one candle per {interval === 'day' ? 'day' : 'week'}: open,
        high, low and close of every entry.
      </p>
      <TimeChart series={series} label={label} height={HEIGHT} className="mt-3" />
      <div className="sr-only">
        <table>
          <caption>{`${pairName(selection)}: ${side} candles per ${interval} (UTC)`}</caption>
          <thead>
            <tr>
              <th scope="col">From</th>
              <th scope="col">Open</th>
              <th scope="col">High</th>
              <th scope="col">Low</th>
              <th scope="col">Close</th>
            </tr>
          </thead>
          <tbody>
            {series[0]!.kind === 'candles' &&
              series[0]!.points.map((c) => (
                <tr key={c.time}>
                  <td>{c.time}</td>
                  <td>{formatNumber(c.open)}</td>
                  <td>{formatNumber(c.high)}</td>
                  <td>{formatNumber(c.low)}</td>
                  <td>{formatNumber(c.close)}</td>
                </tr>
              ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function Empty({ selection }: { selection: RateChartSelection }) {
  return (
    <ChartFrame>
      <EmptyState
        message={`No ${pairName(selection)} rates in the last ${selection.days} days.`}
        description="Pick another market, currency or a longer period."
      />
    </ChartFrame>
  );
}

function Loading() {
  return (
    <ChartFrame>
      <Spinner label="Loading the rate history" className="text-brand-600 [&_svg]:size-8" />
    </ChartFrame>
  );
}

/** A pair's rate history on a market: buy and sell lines, or candles of one side. */
export function RateHistoryChart({ selection }: { selection: RateChartSelection }) {
  const { market, base, asset, days, view } = selection;
  // Fixed for the page's life, so a re-render never asks for a new range.
  const [now] = useState(Date.now);
  const from = utcDay(now - (days - 1) * DAY_MS);
  // A year of day candles is too thin to read: weeks then.
  const interval = days > 90 ? 'week' : 'day';
  const pair = { market, base, asset, from };
  const history = useFetchRateHistoryQuery(pair, { skip: view !== 'lines' });
  const candles = useFetchRateCandlesQuery({ ...pair, interval }, { skip: view !== 'candles' });
  const query = view === 'lines' ? history : candles;

  if (query.error) {
    return (
      <ChartFrame>
        <ErrorState message={errorMessage(query.error)} onRetry={() => void query.refetch()} />
      </ChartFrame>
    );
  }
  if (view === 'lines') {
    const points = history.currentData?.points;
    if (!points) return <Loading />;
    if (points.length === 0) return <Empty selection={selection} />;
    return <HistoryLines selection={selection} points={points} />;
  }
  const rows = candles.currentData?.candles;
  if (!rows) return <Loading />;
  if (rows.length === 0) return <Empty selection={selection} />;
  return <Candles selection={selection} candles={rows} interval={interval} />;
}

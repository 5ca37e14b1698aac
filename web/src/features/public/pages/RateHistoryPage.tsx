import {
  ASSET_DISPLAY,
  ASSETS,
  BASE_DISPLAY,
  BASES,
  DEFAULT_MARKET,
  MARKET_TABS,
  MARKETS,
  type Asset,
  type Base,
  type Market,
} from '@afrofx/shared';
import { useSearchParams } from 'react-router';
import { Card } from '../../../components/Card';
import { SegmentedControl } from '../../../components/SegmentedControl';
import { Tabs } from '../../../components/Tabs';
import { useDocumentTitle } from '../../../lib/use-document-title';
import {
  RateHistoryChart,
  type ChartSide,
  type ChartView,
  type RateChartSelection,
} from '../components/RateHistoryChart';

const PERIODS = ['30', '90', '365'] as const;
const VIEWS = ['lines', 'candles'] as const;
const SIDES = ['buy', 'sell'] as const;

const marketTabs = MARKET_TABS.map((tab) => ({ value: tab.market, label: tab.label }));
const baseOptions = BASES.map((base) => ({
  value: base,
  label: BASE_DISPLAY[base].code,
  title: BASE_DISPLAY[base].name,
}));
const assetOptions = ASSETS.map((asset) => ({
  value: asset,
  label: ASSET_DISPLAY[asset].code,
  title: ASSET_DISPLAY[asset].country,
}));
const periodOptions = [
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '1 year' },
] as const;
const viewOptions = [
  { value: 'lines', label: 'Lines' },
  { value: 'candles', label: 'Candles' },
] as const;
const sideOptions = [
  { value: 'buy', label: 'Buy' },
  { value: 'sell', label: 'Sell' },
] as const;

/** A search parameter when it is one of `values`, else the fallback: a hand-edited link still opens a chart. */
function pick<V extends string>(params: URLSearchParams, name: string, values: readonly V[], fallback: V): V {
  const value = params.get(name);
  return values.includes(value as V) ? (value as V) : fallback;
}

/** A rate-history chart per pair and market, its choices kept in the address so it can be shared. */
export function RateHistoryPage() {
  useDocumentTitle('Rate history');
  const [params, setParams] = useSearchParams();
  const market = pick<Market>(params, 'market', MARKETS, DEFAULT_MARKET);
  const base = pick<Base>(params, 'base', BASES, 'naira');
  const asset = pick<Asset>(params, 'asset', ASSETS, 'dollar');
  const period = pick(params, 'days', PERIODS, '30');
  const view = pick<ChartView>(params, 'view', VIEWS, 'lines');
  const side = pick<ChartSide>(params, 'side', SIDES, 'buy');
  const selection: RateChartSelection = { market, base, asset, days: Number(period), view, side };

  const choose = (name: string) => (value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set(name, value);
        return next;
      },
      { replace: true },
    );

  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:px-6 sm:py-14">
      <h1 className="text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">Rate history</h1>
      <p className="mt-3 max-w-2xl text-slate-600">
        How the buy and sell rates moved over the last month, quarter or year. Switch to candles to see the
        open, high, low and close of every rate we recorded.
      </p>
      <Card className="mt-8 p-3 sm:p-6">
        <Tabs
          label="Market"
          tabs={marketTabs}
          value={market}
          onChange={choose('market')}
          aside={
            <SegmentedControl
              legend="Currency"
              options={baseOptions}
              value={base}
              onChange={choose('base')}
            />
          }
        >
          <div className="flex flex-col gap-3 px-1 pt-4 sm:flex-row sm:flex-wrap sm:items-end sm:gap-6 sm:px-0">
            <SegmentedControl
              legend="Foreign currency"
              showLegend
              options={assetOptions}
              value={asset}
              onChange={choose('asset')}
            />
            <SegmentedControl
              legend="Period"
              showLegend
              options={periodOptions}
              value={period}
              onChange={choose('days')}
            />
            <SegmentedControl
              legend="Chart"
              showLegend
              options={viewOptions}
              value={view}
              onChange={choose('view')}
            />
            {view === 'candles' && (
              <SegmentedControl
                legend="Side"
                showLegend
                options={sideOptions}
                value={side}
                onChange={choose('side')}
              />
            )}
          </div>
          <div className="mt-6 px-1 sm:px-0">
            <RateHistoryChart selection={selection} />
          </div>
        </Tabs>
      </Card>
      <p className="mt-4 text-sm text-slate-500">
        Days are UTC days; a day’s line value is its last rate. Charts by TradingView’s lightweight-charts.
      </p>
    </div>
  );
}

import {
  ASSET_DISPLAY,
  ASSETS,
  BASE_DISPLAY,
  DEFAULT_MARKET,
  formatDateTime,
  formatNumber,
  isSameDay,
  MARKET_LABELS,
  MARKET_TABS,
  type Asset,
  type Market,
  type Rate,
} from '@afrofx/shared';
import { useState } from 'react';
import { errorMessage } from '../../../api/error-message';
import { Card } from '../../../components/Card';
import { ErrorState } from '../../../components/ErrorState';
import { Input } from '../../../components/Input';
import { SegmentedControl } from '../../../components/SegmentedControl';
import { Select } from '../../../components/Select';
import { Tabs } from '../../../components/Tabs';
import { usePageClock } from '../../../lib/page-clock';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { foreignToNaira, nairaToForeign, parseAmount } from '../conversion';
import { useFetchRatesQuery } from '../public-api';

const NAIRA = BASE_DISPLAY.naira;

type Side = 'sell' | 'buy';
type Edited = { field: 'foreign' | 'naira'; text: string };

const marketTabs = MARKET_TABS.map((tab) => ({ value: tab.market, label: tab.label }));
const assetOptions = ASSETS.map((asset) => ({
  value: asset,
  name: `${ASSET_DISPLAY[asset].flag}  ${ASSET_DISPLAY[asset].code} — ${ASSET_DISPLAY[asset].country}`,
}));

/** The other field follows the one the visitor typed in, on the rate for the chosen side. */
function derive(edited: Edited, rate: number | undefined): { foreign: string; naira: string } {
  const amount = parseAmount(edited.text);
  if (edited.field === 'foreign') {
    const naira = amount === undefined || rate === undefined ? '' : String(foreignToNaira(amount, rate));
    return { foreign: edited.text, naira };
  }
  const foreign = amount === undefined || rate === undefined ? '' : nairaToForeign(amount, rate).toFixed(2);
  return { foreign, naira: edited.text };
}

function RateSummary({
  rate,
  side,
  asset,
  market,
}: {
  rate: Rate | undefined;
  side: Side;
  asset: Asset;
  market: Market;
}) {
  const { code } = ASSET_DISPLAY[asset];
  const { now, timeZone } = usePageClock();
  if (!rate) {
    return (
      <p className="text-sm text-slate-600">
        There is no {NAIRA.code} rate for {code} in the {MARKET_LABELS[market]} market yet. Try another
        market.
      </p>
    );
  }
  const value = side === 'sell' ? rate.buy : rate.sell;
  const stale = !isSameDay(rate.updatedAt, now, timeZone);
  return (
    <div>
      <p className="text-sm font-medium text-slate-500">Rate used</p>
      <p className="mt-1 text-3xl font-extrabold tracking-tight text-brand-900 tabular-nums">
        {NAIRA.symbol}
        {formatNumber(value)}
        <span className="ml-2 text-base font-semibold text-slate-500">per 1 {code}</span>
      </p>
      <dl className="mt-4 grid grid-cols-2 gap-3 text-sm">
        <div className="rounded-lg bg-slate-50 p-3">
          <dt className="text-slate-500">Side</dt>
          <dd className="font-semibold text-slate-900">{side === 'sell' ? 'Buy rate' : 'Sell rate'}</dd>
        </div>
        <div className="rounded-lg bg-slate-50 p-3">
          <dt className="text-slate-500">Market</dt>
          <dd className="font-semibold text-slate-900">{MARKET_LABELS[market]}</dd>
        </div>
        <div className="col-span-2 rounded-lg bg-slate-50 p-3">
          <dt className="text-slate-500">Last updated</dt>
          <dd className="font-semibold text-slate-900 tabular-nums">
            {formatDateTime(rate.updatedAt, timeZone)}
          </dd>
        </div>
      </dl>
      {stale && (
        <p className="mt-4 rounded-lg bg-gold-50 p-3 text-sm text-gold-700 ring-1 ring-gold-400/30 ring-inset">
          This rate was not updated today, so the market may have moved since.
        </p>
      )}
    </div>
  );
}

export function RateCalculatorPage() {
  useDocumentTitle('Rate calculator');
  const [market, setMarket] = useState<Market>(DEFAULT_MARKET);
  const [asset, setAsset] = useState<Asset>('dollar');
  const [side, setSide] = useState<Side>('sell');
  const [edited, setEdited] = useState<Edited>({ field: 'foreign', text: '100' });
  // `currentData` rather than `data`: a conversion never uses the previous market's rate.
  const { currentData, isFetching, error, refetch } = useFetchRatesQuery(market);
  const isLoading = !currentData && isFetching;

  const rate = currentData?.find((entry) => entry.base === 'naira' && entry.asset === asset);
  const rateValue = rate && (side === 'sell' ? rate.buy : rate.sell);
  const values = derive(edited, rateValue);
  const { code, symbol } = ASSET_DISPLAY[asset];
  const invalid =
    edited.text.trim() !== '' && parseAmount(edited.text) === undefined
      ? 'Enter an amount, like 1250.50.'
      : undefined;

  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6 lg:py-16">
      <div className="max-w-2xl">
        <p className="text-sm font-semibold tracking-wide text-gold-700 uppercase">Rate calculator</p>
        <h1 className="mt-2 text-3xl font-extrabold tracking-tight text-brand-950 sm:text-4xl">
          Convert between {code} and naira
        </h1>
        <p className="mt-3 text-slate-600">
          Type in either box and the other follows, using today’s {MARKET_LABELS[market].toLowerCase()} market
          rate.
        </p>
      </div>

      <div className="mt-10 grid gap-6 lg:grid-cols-[3fr_2fr]">
        <Card className="p-5 sm:p-8">
          <Tabs label="Market" tabs={marketTabs} value={market} onChange={setMarket}>
            {error ? (
              <ErrorState message={errorMessage(error)} onRetry={refetch} />
            ) : (
              <div className="space-y-6">
                <div className="grid gap-4 sm:grid-cols-2">
                  <Select
                    label="Currency"
                    options={assetOptions}
                    value={asset}
                    onChange={(event) => setAsset(event.target.value as Asset)}
                  />
                  <SegmentedControl
                    legend="I want to"
                    showLegend
                    options={[
                      { value: 'sell', label: `Sell ${code}` },
                      { value: 'buy', label: `Buy ${code}` },
                    ]}
                    value={side}
                    onChange={setSide}
                  />
                </div>
                <div className="grid items-start gap-4 sm:grid-cols-[1fr_auto_1fr]">
                  <Input
                    label={`${code} amount`}
                    inputMode="decimal"
                    autoComplete="off"
                    required={false}
                    value={values.foreign}
                    onChange={(event) => setEdited({ field: 'foreign', text: event.target.value })}
                    error={edited.field === 'foreign' ? invalid : undefined}
                    disabled={isLoading}
                    className="text-lg font-semibold tabular-nums"
                  />
                  <span
                    className="hidden h-11 items-center justify-center self-end text-xl text-gold-500 sm:flex"
                    aria-hidden="true"
                  >
                    ⇄
                  </span>
                  <Input
                    label={`${NAIRA.code} balance`}
                    inputMode="decimal"
                    autoComplete="off"
                    required={false}
                    value={values.naira}
                    onChange={(event) => setEdited({ field: 'naira', text: event.target.value })}
                    error={edited.field === 'naira' ? invalid : undefined}
                    disabled={isLoading}
                    className="text-lg font-semibold tabular-nums"
                  />
                </div>
                {rateValue !== undefined && !invalid && values.foreign && values.naira && (
                  <p className="rounded-xl bg-brand-50 p-4 text-center text-brand-900" aria-live="polite">
                    <span className="font-semibold tabular-nums">
                      {symbol}
                      {formatNumber(parseAmount(values.foreign) ?? 0)} {code}
                    </span>{' '}
                    {side === 'sell' ? 'gets you' : 'costs'}{' '}
                    <span className="font-semibold tabular-nums">
                      {NAIRA.symbol}
                      {formatNumber(parseAmount(values.naira) ?? 0)}
                    </span>
                  </p>
                )}
              </div>
            )}
          </Tabs>
        </Card>

        <Card className="p-5 sm:p-8">
          {isLoading ? (
            <div className="space-y-3" aria-busy="true">
              <span role="status" className="sr-only">
                Loading rates
              </span>
              <div className="h-4 w-24 animate-pulse rounded bg-slate-200" />
              <div className="h-9 w-48 animate-pulse rounded bg-slate-200" />
              <div className="h-20 animate-pulse rounded bg-slate-100" />
            </div>
          ) : (
            !error && <RateSummary rate={rate} side={side} asset={asset} market={market} />
          )}
          <div className="mt-6 border-t border-slate-100 pt-5 text-sm leading-6 text-slate-600">
            <p>
              <strong className="text-slate-900">Selling {code}?</strong> A dealer pays you their buy rate.
            </p>
            <p className="mt-1">
              <strong className="text-slate-900">Buying {code}?</strong> You pay their sell rate.
            </p>
            <p className="mt-3 text-xs text-slate-500">Naira amounts are rounded down to the whole naira.</p>
          </div>
        </Card>
      </div>
    </div>
  );
}

import {
  ASSET_DISPLAY,
  ASSETS,
  BASE_DISPLAY,
  BASES,
  DEFAULT_MARKET,
  formatNumber,
  MARKET_LABELS,
  MARKET_TABS,
  type Asset,
  type Base,
  type Market,
} from '@afrofx/shared';
import { useState } from 'react';
import { errorMessage } from '../../../api/error-message';
import { Card } from '../../../components/Card';
import { ErrorState } from '../../../components/ErrorState';
import { Input } from '../../../components/Input';
import { SegmentedControl } from '../../../components/SegmentedControl';
import { Select } from '../../../components/Select';
import { Tabs } from '../../../components/Tabs';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { ConversionSummary } from '../components/ConversionSummary';
import { baseToForeign, foreignToBase, parseAmount, sideFor, type SideChoice } from '../conversion';
import { useFetchRatesQuery } from '../public-api';

type Edited = { field: 'foreign' | 'base'; text: string };

const marketTabs = MARKET_TABS.map((tab) => ({ value: tab.market, label: tab.label }));
const assetOptions = ASSETS.map((asset) => ({
  value: asset,
  name: `${ASSET_DISPLAY[asset].flag}  ${ASSET_DISPLAY[asset].code} — ${ASSET_DISPLAY[asset].country}`,
}));
const baseOptions = BASES.map((base) => ({
  value: base,
  name: `${BASE_DISPLAY[base].code} — ${BASE_DISPLAY[base].name}`,
}));

/** The other field follows the one the visitor typed in, on the rate of the side the conversion uses. */
function derive(edited: Edited, rate: number | undefined): { foreign: string; base: string } {
  const amount = parseAmount(edited.text);
  if (edited.field === 'foreign') {
    const base = amount === undefined || rate === undefined ? '' : String(foreignToBase(amount, rate));
    return { foreign: edited.text, base };
  }
  const foreign = amount === undefined || rate === undefined ? '' : baseToForeign(amount, rate).toFixed(2);
  return { foreign, base: edited.text };
}

export function RateCalculatorPage() {
  useDocumentTitle('Rate calculator');
  const [market, setMarket] = useState<Market>(DEFAULT_MARKET);
  // SPEC §2: the calculator opens on the dollar and the naira.
  const [base, setBase] = useState<Base>('naira');
  const [asset, setAsset] = useState<Asset>('dollar');
  const [choice, setChoice] = useState<SideChoice>('auto');
  const [edited, setEdited] = useState<Edited>({ field: 'foreign', text: '100' });
  // `currentData` rather than `data`: a conversion never uses the previous market's rate.
  const { currentData, isFetching, error, refetch } = useFetchRatesQuery(market);
  const isLoading = !currentData && isFetching;

  const rate = currentData?.find((entry) => entry.base === base && entry.asset === asset);
  const direction = edited.field === 'foreign' ? 'into-base' : 'from-base';
  const side = sideFor(direction, choice);
  const rateValue = rate && (side === 'buy' ? rate.buy : rate.sell);
  const values = derive(edited, rateValue);
  const { code, symbol } = ASSET_DISPLAY[asset];
  const baseShown = BASE_DISPLAY[base];
  const invalid =
    edited.text.trim() !== '' && parseAmount(edited.text) === undefined
      ? 'Enter an amount, like 1250.50.'
      : undefined;
  const from =
    direction === 'into-base'
      ? { symbol, code, amount: values.foreign }
      : { symbol: baseShown.symbol, code: baseShown.code, amount: values.base };
  const to =
    direction === 'into-base'
      ? { symbol: baseShown.symbol, code: baseShown.code, amount: values.base }
      : { symbol, code, amount: values.foreign };

  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6 lg:py-16">
      <div className="max-w-2xl">
        <p className="text-sm font-semibold tracking-wide text-gold-700 uppercase">Rate calculator</p>
        <h1 className="mt-2 text-3xl font-extrabold tracking-tight text-brand-950 sm:text-4xl">
          Convert between {code} and {baseShown.code}
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
                  <Select
                    label="Base currency"
                    options={baseOptions}
                    value={base}
                    onChange={(event) => setBase(event.target.value as Base)}
                  />
                </div>
                <SegmentedControl
                  legend="Rate side"
                  showLegend
                  options={[
                    { value: 'auto', label: 'By direction', title: 'Into the base: buy; out of it: sell' },
                    { value: 'buy', label: 'Buy rate' },
                    { value: 'sell', label: 'Sell rate' },
                  ]}
                  value={choice}
                  onChange={setChoice}
                />
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
                    label={`${baseShown.code} balance`}
                    inputMode="decimal"
                    autoComplete="off"
                    required={false}
                    value={values.base}
                    onChange={(event) => setEdited({ field: 'base', text: event.target.value })}
                    error={edited.field === 'base' ? invalid : undefined}
                    disabled={isLoading}
                    className="text-lg font-semibold tabular-nums"
                  />
                </div>
                {rateValue !== undefined && !invalid && values.foreign && values.base && (
                  <p
                    className="rounded-xl bg-brand-50 p-4 text-center text-brand-900"
                    aria-live="polite"
                    data-testid="conversion"
                  >
                    <span className="font-semibold tabular-nums">
                      {from.symbol}
                      {formatNumber(parseAmount(from.amount) ?? 0)} {from.code}
                    </span>{' '}
                    ={' '}
                    <span className="font-semibold tabular-nums" data-testid="converted">
                      {to.symbol}
                      {formatNumber(parseAmount(to.amount) ?? 0)} {to.code}
                    </span>{' '}
                    <span className="text-sm text-brand-800/80">
                      at {baseShown.symbol}
                      {formatNumber(rateValue)} ({side})
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
            !error && (
              <ConversionSummary
                rate={rate}
                side={side}
                choice={choice}
                direction={direction}
                asset={asset}
                base={base}
                market={market}
              />
            )
          )}
          <div className="mt-6 border-t border-slate-100 pt-5 text-sm leading-6 text-slate-600">
            <p>
              <strong className="text-slate-900">
                {code} into {baseShown.code}?
              </strong>{' '}
              A dealer pays you their buy rate.
            </p>
            <p className="mt-1">
              <strong className="text-slate-900">
                {baseShown.code} into {code}?
              </strong>{' '}
              You pay their sell rate.
            </p>
            <p className="mt-3 text-xs text-slate-500">
              {baseShown.code} amounts are rounded down to the whole unit.
            </p>
          </div>
        </Card>
      </div>
    </div>
  );
}

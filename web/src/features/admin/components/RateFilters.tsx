import {
  ASSET_DISPLAY,
  ASSETS,
  BASE_DISPLAY,
  BASES,
  MARKET_LABELS,
  MARKETS,
  type AdminRatesFilter,
  type Asset,
  type Base,
  type Market,
} from '@afrofx/shared';
import { Button } from '../../../components/Button';
import { Input } from '../../../components/Input';
import { Select } from '../../../components/Select';

/** The select's choice for "no filter": the Select keeps its empty value for a disabled placeholder. */
const ALL = 'all';
const DAY = /^\d{4}-\d{2}-\d{2}$/;

const marketOptions = [
  { name: 'All markets', value: ALL },
  ...MARKETS.map((market) => ({ name: MARKET_LABELS[market], value: market })),
];
const baseOptions = [
  { name: 'All bases', value: ALL },
  ...BASES.map((base) => ({ name: `${BASE_DISPLAY[base].code} · ${BASE_DISPLAY[base].name}`, value: base })),
];
const assetOptions = [
  { name: 'All assets', value: ALL },
  ...ASSETS.map((asset) => ({ name: ASSET_DISPLAY[asset].code, value: asset })),
];

function pick<V extends string>(params: URLSearchParams, name: string, values: readonly V[]): V | undefined {
  const value = params.get(name);
  return values.includes(value as V) ? (value as V) : undefined;
}

/** The filter the address holds; a value the list does not know is left out rather than refused. */
export function filterFromParams(params: URLSearchParams): AdminRatesFilter {
  const day = (name: string) => {
    const value = params.get(name);
    return value && DAY.test(value) ? value : undefined;
  };
  const filter: AdminRatesFilter = {
    market: pick<Market>(params, 'market', MARKETS),
    base: pick<Base>(params, 'base', BASES),
    asset: pick<Asset>(params, 'asset', ASSETS),
    from: day('from'),
    to: day('to'),
  };
  return Object.fromEntries(Object.entries(filter).filter(([, value]) => value)) as AdminRatesFilter;
}

/** The server refuses a range that ends before it starts; the form says so under "To" without asking. */
export function rangeError(filter: AdminRatesFilter): string | undefined {
  return filter.from && filter.to && filter.from > filter.to
    ? 'The to date must not be before the from date.'
    : undefined;
}

interface RateFiltersProps {
  filter: AdminRatesFilter;
  onChange: (name: keyof AdminRatesFilter, value: string | undefined) => void;
  onClear: () => void;
}

/** The rates list filtered by market, pair and days; the choices live in the address. */
export function RateFilters({ filter, onChange, onClear }: RateFiltersProps) {
  const choose = (name: 'market' | 'base' | 'asset') => (event: { target: { value: string } }) =>
    onChange(name, event.target.value === ALL ? undefined : event.target.value);
  const day = (name: 'from' | 'to') => (event: { target: { value: string } }) =>
    onChange(name, event.target.value || undefined);
  const filtered = Object.keys(filter).length > 0;

  return (
    <form
      role="search"
      aria-label="Filter rates"
      onSubmit={(event) => event.preventDefault()}
      className="grid grid-cols-2 items-start gap-3 border-b border-slate-100 p-4 sm:grid-cols-3 lg:grid-cols-[repeat(5,minmax(0,1fr))_auto] lg:items-end"
    >
      <Select
        label="Market"
        options={marketOptions}
        value={filter.market ?? ALL}
        onChange={choose('market')}
      />
      <Select label="Base" options={baseOptions} value={filter.base ?? ALL} onChange={choose('base')} />
      <Select label="Asset" options={assetOptions} value={filter.asset ?? ALL} onChange={choose('asset')} />
      <Input
        label="From"
        type="date"
        required={false}
        value={filter.from ?? ''}
        max={filter.to}
        onChange={day('from')}
      />
      <Input
        label="To"
        type="date"
        required={false}
        value={filter.to ?? ''}
        min={filter.from}
        error={rangeError(filter)}
        onChange={day('to')}
      />
      <Button
        type="button"
        variant="secondary"
        className="col-span-2 sm:col-span-1 lg:mb-0"
        disabled={!filtered}
        onClick={onClear}
      >
        Clear filters
      </Button>
    </form>
  );
}

import {
  ASSET_DISPLAY,
  ASSETS,
  baseSymbol,
  formatLastUpdated,
  formatNumber,
  isSameDay,
  type Base,
  type Rate,
} from '@afrofx/shared';
import { Table, type Column } from '../../../components/Table';

const NOT_UPDATED_TODAY = 'Rates have not been updated today.';

interface RatesTableProps {
  base: Base;
  rates: ReadonlyArray<Rate> | undefined;
  isLoading: boolean;
  error?: string | null;
  onRetry?: () => void;
  /** The moment "today" is judged against. */
  now?: Date;
}

const assetOrder = (rate: Rate) => ASSETS.indexOf(rate.asset);

/** SPEC §2: a market's rates for one base currency, or the empty state when none is from today. */
export function RatesTable({ base, rates, isLoading, error, onRetry, now = new Date() }: RatesTableProps) {
  const forBase = (rates ?? [])
    .filter((rate) => rate.base === base)
    .sort((a, b) => assetOrder(a) - assetOrder(b));
  const updatedToday = forBase.some((rate) => isSameDay(rate.updatedAt, now));
  const symbol = baseSymbol(base);
  const price = (value: number) => `${symbol}${formatNumber(value)}`;

  const columns: ReadonlyArray<Column<Rate>> = [
    {
      key: 'asset',
      header: 'Asset',
      cell: (rate) => {
        const asset = ASSET_DISPLAY[rate.asset];
        return (
          <div className="flex items-center gap-2.5 sm:gap-3">
            <span className="text-2xl leading-none" role="img" aria-label={`${asset.country} flag`}>
              {asset.flag}
            </span>
            <div>
              <p className="font-semibold text-slate-900">{asset.code}</p>
              <p className="max-w-[5.5rem] text-[11px] leading-4 whitespace-normal text-slate-500 tabular-nums sm:hidden">
                {formatLastUpdated(rate.updatedAt)}
              </p>
              <p className="hidden text-xs text-slate-500 sm:block">{asset.country}</p>
            </div>
          </div>
        );
      },
    },
    {
      key: 'buy',
      header: 'BUY',
      align: 'right',
      cell: (rate) => <span className="font-semibold text-slate-900 tabular-nums">{price(rate.buy)}</span>,
    },
    {
      key: 'sell',
      header: 'SELL',
      align: 'right',
      cell: (rate) => <span className="font-semibold text-slate-900 tabular-nums">{price(rate.sell)}</span>,
    },
    {
      key: 'updated',
      header: 'Last updated',
      align: 'right',
      className: 'hidden sm:table-cell',
      cell: (rate) => (
        <span className="text-slate-500 tabular-nums">{formatLastUpdated(rate.updatedAt)}</span>
      ),
    },
  ];

  return (
    <Table
      caption="Exchange rates"
      columns={columns}
      rows={updatedToday ? forBase : []}
      rowKey={(rate) => rate._id}
      isLoading={isLoading}
      loadingLabel="Loading rates"
      error={error}
      onRetry={onRetry}
      emptyMessage={NOT_UPDATED_TODAY}
      emptyDescription="Our desk publishes new rates every morning. Try another market or currency, or check back soon."
    />
  );
}

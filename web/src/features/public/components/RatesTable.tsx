import {
  ASSET_DISPLAY,
  baseSymbol,
  formatDateTime,
  formatNumber,
  pairPath,
  type Base,
  type Pair,
  type Quote,
} from '@afrofx/shared';
import { Link } from 'react-router';
import { Flag } from '../../../components/Flag';
import { Table, type Column } from '../../../components/Table';
import { cn } from '../../../lib/cn';
import { usePageClock } from '../../../lib/page-clock';
import { shownRates } from '../shown-rates';

const NOT_UPDATED_TODAY = 'Rates have not been updated today.';

interface RatesTableProps {
  base: Base;
  rates: ReadonlyArray<Quote> | undefined;
  isLoading: boolean;
  error?: string | null;
  onRetry?: () => void;
  /** The moment "today" is judged against. */
  now?: Date;
  /** On a pair's page: its asset's row is marked, and each asset opens its own pair's page. */
  pair?: Pair;
}

/** A rate's update stamp in SPEC §9's one date format, machine-readable for assistive tools. */
export function UpdatedAt({ value, className }: { value: string; className?: string }) {
  const { timeZone } = usePageClock();
  return (
    <time dateTime={value} className={className}>
      {formatDateTime(value, timeZone)}
    </time>
  );
}

/** The mid's move since the previous close, as a signed percentage with an arrow (no colour-only meaning). */
export function ChangeBadge({ quote, className }: { quote: Quote; className?: string }) {
  if (quote.changePct === null) {
    return (
      <span className={cn('text-slate-500', className)}>
        <span aria-hidden="true">—</span>
        <span className="sr-only">No earlier day to compare with</span>
      </span>
    );
  }
  const direction = quote.changePct > 0 ? 'up' : quote.changePct < 0 ? 'down' : 'flat';
  const arrow = { up: '▲', down: '▼', flat: '■' }[direction];
  const tone = { up: 'text-brand-700', down: 'text-red-700', flat: 'text-slate-500' }[direction];
  const percent = `${formatNumber(Math.abs(quote.changePct))}%`;
  return (
    // A plain span cannot carry an aria-label, so the spoken words are hidden text beside the visible arrow.
    <span className={cn('font-semibold whitespace-nowrap tabular-nums', tone, className)}>
      <span aria-hidden="true">
        {arrow} {percent}
      </span>
      <span className="sr-only">
        {direction === 'flat'
          ? 'Unchanged since the previous day'
          : `${direction} ${percent} since the previous day`}
      </span>
    </span>
  );
}

/** SPEC §2: a market's rates for one base currency, or the empty state when none is from today. */
export function RatesTable({ base, rates, isLoading, error, onRetry, now, pair }: RatesTableProps) {
  const clock = usePageClock();
  const shown = shownRates(rates, base, now ?? clock.now, clock.timeZone);
  const symbol = baseSymbol(base);
  const price = (value: number) => `${symbol}${formatNumber(value)}`;

  const columns: ReadonlyArray<Column<Quote>> = [
    {
      key: 'asset',
      header: 'Asset',
      cell: (rate) => {
        const asset = ASSET_DISPLAY[rate.asset];
        return (
          <div className="flex items-center gap-2.5 sm:gap-3">
            <Flag asset={rate.asset} />
            <div>
              <p className="flex flex-wrap items-baseline gap-x-2">
                {pair ? (
                  <Link
                    to={pairPath({ base, asset: rate.asset })}
                    className="font-semibold text-brand-800 underline-offset-2 hover:underline"
                  >
                    {asset.code}
                  </Link>
                ) : (
                  <span className="font-semibold text-slate-900">{asset.code}</span>
                )}
                <ChangeBadge quote={rate} className="text-[11px] sm:hidden" />
              </p>
              {/* slate-600: the pair's own row is tinted, where slate-500 at this size falls below AA contrast. */}
              <p className="text-[11px] leading-4 whitespace-normal text-slate-600 sm:hidden">
                <UpdatedAt value={rate.updatedAt} />
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
      key: 'spread',
      header: 'Spread',
      align: 'right',
      className: 'hidden md:table-cell',
      cell: (rate) => (
        <span className="text-slate-600 tabular-nums">
          {price(rate.spread)}
          <span className="block text-xs text-slate-500">{formatNumber(rate.spreadPct)}%</span>
        </span>
      ),
    },
    {
      key: 'change',
      header: (
        <abbr title="Change of the mid rate since the previous day's last rate" className="no-underline">
          Change
        </abbr>
      ),
      align: 'right',
      className: 'hidden sm:table-cell',
      cell: (rate) => <ChangeBadge quote={rate} />,
    },
    {
      key: 'updated',
      header: 'Last updated',
      align: 'right',
      className: 'hidden sm:table-cell',
      // A corrected figure says so: the time is the correction's, the first publication stays on record.
      cell: (rate) => (
        <span className="text-slate-600">
          <UpdatedAt value={rate.updatedAt} />
          {rate.revision > 0 && <span className="block text-xs">corrected</span>}
        </span>
      ),
    },
  ];

  return (
    <Table
      caption="Exchange rates"
      columns={columns}
      rows={shown}
      rowKey={(rate) => rate._id}
      isLoading={isLoading}
      loadingLabel="Loading rates"
      error={error}
      onRetry={onRetry}
      emptyMessage={NOT_UPDATED_TODAY}
      emptyDescription="Our desk publishes new rates every morning. Try another market or currency, or check back soon."
      cardBelow={false}
      isCurrentRow={pair ? (rate) => rate.asset === pair.asset && base === pair.base : undefined}
    />
  );
}

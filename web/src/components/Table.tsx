import { useId, useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { cn } from '../lib/cn';
import { EmptyState } from './EmptyState';
import { ErrorState } from './ErrorState';
import { Spinner } from './Spinner';
import { useWindowBottom } from './use-window-bottom';

export interface Column<T> {
  key: string;
  header: ReactNode;
  cell: (row: T) => ReactNode;
  align?: 'left' | 'right';
  /** Applied to the header and every cell of the column (e.g. to hide it on small screens). */
  className?: string;
  /** On a phone, the column's cell heads its row's card, unlabelled (the row's name: an e-mail, a plan). */
  cardTitle?: boolean;
}

interface TableProps<T> {
  caption: string;
  columns: ReadonlyArray<Column<T>>;
  rows: ReadonlyArray<T> | undefined;
  rowKey: (row: T) => string;
  emptyMessage: string;
  emptyDescription?: ReactNode;
  isLoading?: boolean;
  loadingLabel?: string;
  error?: string | null;
  onRetry?: () => void;
  hasMore?: boolean;
  isLoadingMore?: boolean;
  onLoadMore?: () => void;
  /**
   * Below this breakpoint (`sm`, 640 px) every row is a card of "label: value" lines, the column headers as
   * labels; `false` keeps the table at every width, for a table made to fit a phone.
   */
  cardBelow?: 'sm' | false;
  /** The row the page is about (a pair page's asset): marked for the eye and for assistive tools. */
  isCurrentRow?: (row: T) => boolean;
}

const SKELETON_ROWS = 5;
const tablePadding = 'px-3 first:pl-4 last:pr-4 sm:px-4 sm:first:pl-5 sm:last:pr-5';
// As cards, the row holds the padding; the cells are the card's lines.
const cardPadding = 'sm:px-4 sm:first:pl-5 sm:last:pr-5';
type CellKind = 'skeleton' | 'value';
const tableCell: Record<CellKind, string> = { skeleton: 'py-4', value: 'py-3.5 whitespace-nowrap' };
const cardCell: Record<CellKind, string> = {
  skeleton: 'sm:py-4',
  value: 'sm:py-3.5 sm:whitespace-nowrap',
};

/**
 * Whether the element is narrower than its content. Measured again when `version` changes (new rows) and
 * when it or its content is resized.
 */
function useSidewaysOverflow(ref: RefObject<HTMLElement | null>, version: string): boolean {
  const [overflowing, setOverflowing] = useState(false);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setOverflowing(element.scrollWidth > element.clientWidth + 1);
    measure();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    observer?.observe(element);
    if (element.firstElementChild) observer?.observe(element.firstElementChild);
    window.addEventListener('resize', measure);
    return () => {
      observer?.disconnect();
      window.removeEventListener('resize', measure);
    };
  }, [ref, version]);
  return overflowing;
}

/**
 * The one data table: loading, error and empty states, and infinite scrolling when `onLoadMore` is given.
 * On a phone its rows are stacked cards (see `cardBelow`); a table wider than its box says so and scrolls
 * sideways from the keyboard too.
 */
export function Table<T>({
  caption,
  columns,
  rows,
  rowKey,
  emptyMessage,
  emptyDescription,
  isLoading = false,
  loadingLabel = 'Loading',
  error,
  onRetry,
  hasMore = false,
  isLoadingMore = false,
  onLoadMore,
  cardBelow = 'sm',
  isCurrentRow,
}: TableProps<T>) {
  const rowCount = rows?.length ?? 0;
  const canLoadMore = Boolean(onLoadMore) && hasMore && !isLoading && !isLoadingMore && !error;
  useWindowBottom(() => onLoadMore?.(), canLoadMore, rowCount);
  const scrollerRef = useRef<HTMLDivElement>(null);
  const overflowing = useSidewaysOverflow(scrollerRef, `${rowCount}:${isLoading}`);
  const hintId = useId();

  if (error && rowCount === 0) return <ErrorState message={error} onRetry={onRetry} />;
  if (!isLoading && rowCount === 0)
    return <EmptyState message={emptyMessage} description={emptyDescription} />;

  const cards = cardBelow === 'sm';

  const alignment = (column: Column<T>) => {
    const side = column.align === 'right' ? 'text-right' : 'text-left';
    if (!cards) return side;
    // A card's title line reads from the left, its other values sit at the right, facing their labels.
    if (column.cardTitle) return column.align === 'right' ? 'text-left sm:text-right' : 'text-left';
    return column.align === 'right' ? 'text-right' : 'text-right sm:text-left';
  };

  const cellClasses = (column: Column<T>, kind: CellKind) =>
    cn(
      cards ? cardPadding : tablePadding,
      cards &&
        (column.cardTitle
          ? 'max-sm:order-first max-sm:block max-sm:pb-1'
          : 'max-sm:flex max-sm:items-baseline max-sm:justify-between max-sm:gap-4 max-sm:py-1'),
      (cards ? cardCell : tableCell)[kind],
      alignment(column),
      column.className,
    );

  // The header again, inside the cell, as the card's label; hidden from assistive technology, which
  // already pairs the cell with its column header.
  const cardLine = (column: Column<T>, value: ReactNode) =>
    cards ? (
      <>
        {!column.cardTitle && (
          <span
            aria-hidden="true"
            className="shrink-0 text-left text-xs font-semibold tracking-wide text-slate-500 uppercase sm:hidden"
          >
            {column.header}
          </span>
        )}
        <div className="min-w-0 max-sm:wrap-anywhere">{value}</div>
      </>
    ) : (
      value
    );

  const rowClasses = cards ? 'max-sm:flex max-sm:flex-col max-sm:px-4 max-sm:py-3' : undefined;

  return (
    <div>
      {overflowing && (
        <p
          id={hintId}
          className="flex items-center justify-end gap-1.5 border-b border-slate-100 px-4 py-2 text-xs font-medium text-slate-600"
        >
          Scroll sideways for more columns
          <span aria-hidden="true">→</span>
        </p>
      )}
      <div
        ref={scrollerRef}
        className="relative overflow-x-auto"
        {...(overflowing && {
          role: 'region',
          'aria-label': caption,
          'aria-describedby': hintId,
          tabIndex: 0,
        })}
      >
        <table
          className={cn('min-w-full text-sm', cards && 'max-sm:block')}
          aria-busy={isLoading || undefined}
        >
          <caption className="sr-only">{caption}</caption>
          <thead className={cards ? 'max-sm:sr-only' : undefined}>
            <tr className="border-b border-slate-200 bg-slate-50/80">
              {columns.map((column) => (
                <th
                  key={column.key}
                  scope="col"
                  className={cn(
                    tablePadding,
                    'py-3 text-xs font-semibold tracking-wide whitespace-nowrap text-slate-500 uppercase',
                    column.align === 'right' ? 'text-right' : 'text-left',
                    column.className,
                  )}
                >
                  {column.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className={cn('divide-y divide-slate-100', cards && 'max-sm:block')}>
            {isLoading
              ? Array.from({ length: SKELETON_ROWS }, (_, index) => (
                  <tr key={index} className={rowClasses}>
                    {columns.map((column) => (
                      <td key={column.key} className={cellClasses(column, 'skeleton')}>
                        {cardLine(
                          column,
                          <span className="inline-block h-4 w-24 max-w-32 animate-pulse rounded bg-slate-200 sm:block sm:w-full" />,
                        )}
                      </td>
                    ))}
                  </tr>
                ))
              : rows?.map((row) => (
                  <tr
                    key={rowKey(row)}
                    aria-current={isCurrentRow?.(row) || undefined}
                    className={cn(
                      rowClasses,
                      'transition-colors hover:bg-slate-50/70',
                      isCurrentRow?.(row) && 'bg-gold-50 hover:bg-gold-50',
                    )}
                  >
                    {columns.map((column) => (
                      <td key={column.key} className={cn(cellClasses(column, 'value'), 'text-slate-700')}>
                        {cardLine(column, column.cell(row))}
                      </td>
                    ))}
                  </tr>
                ))}
          </tbody>
        </table>
      </div>
      {isLoading && (
        <span role="status" className="sr-only">
          {loadingLabel}
        </span>
      )}
      {isLoadingMore && (
        <div className="flex items-center justify-center gap-2 border-t border-slate-100 py-4 text-sm font-medium text-slate-500">
          <Spinner label="Loading more" className="text-brand-600" />
          <span aria-hidden="true">Loading more</span>
        </div>
      )}
      {error && rowCount > 0 && (
        <div className="flex items-center justify-center gap-3 border-t border-slate-100 py-4 text-sm text-red-600">
          <span role="alert">{error}</span>
          {onRetry && (
            <button type="button" onClick={onRetry} className="font-semibold text-brand-700 underline">
              Try again
            </button>
          )}
        </div>
      )}
      {onLoadMore && !hasMore && !isLoading && !error && (
        <p className="border-t border-slate-100 py-4 text-center text-xs text-slate-500">
          {rowCount === 1 ? 'Showing the only entry.' : `Showing all ${rowCount} entries.`}
        </p>
      )}
    </div>
  );
}

import type { ReactNode } from 'react';
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
}

const SKELETON_ROWS = 5;
const cellPadding = 'px-3 first:pl-4 last:pr-4 sm:px-4 sm:first:pl-5 sm:last:pr-5';

/** The one data table: loading, error and empty states, and infinite scrolling when `onLoadMore` is given. */
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
}: TableProps<T>) {
  const rowCount = rows?.length ?? 0;
  const canLoadMore = Boolean(onLoadMore) && hasMore && !isLoading && !isLoadingMore && !error;
  useWindowBottom(() => onLoadMore?.(), canLoadMore, rowCount);

  if (error && rowCount === 0) return <ErrorState message={error} onRetry={onRetry} />;
  if (!isLoading && rowCount === 0)
    return <EmptyState message={emptyMessage} description={emptyDescription} />;

  const alignment = (column: Column<T>) => (column.align === 'right' ? 'text-right' : 'text-left');

  return (
    <div>
      <div className="relative overflow-x-auto">
        <table className="min-w-full text-sm" aria-busy={isLoading || undefined}>
          <caption className="sr-only">{caption}</caption>
          <thead>
            <tr className="border-b border-slate-200 bg-slate-50/80">
              {columns.map((column) => (
                <th
                  key={column.key}
                  scope="col"
                  className={cn(
                    cellPadding,
                    'py-3 text-xs font-semibold tracking-wide whitespace-nowrap text-slate-500 uppercase',
                    alignment(column),
                    column.className,
                  )}
                >
                  {column.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {isLoading
              ? Array.from({ length: SKELETON_ROWS }, (_, index) => (
                  <tr key={index}>
                    {columns.map((column) => (
                      <td key={column.key} className={cn(cellPadding, 'py-4', column.className)}>
                        <span className="block h-4 w-full max-w-32 animate-pulse rounded bg-slate-200" />
                      </td>
                    ))}
                  </tr>
                ))
              : rows?.map((row) => (
                  <tr key={rowKey(row)} className="transition-colors hover:bg-slate-50/70">
                    {columns.map((column) => (
                      <td
                        key={column.key}
                        className={cn(
                          cellPadding,
                          'py-3.5 whitespace-nowrap text-slate-700',
                          alignment(column),
                          column.className,
                        )}
                      >
                        {column.cell(row)}
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
        <p className="border-t border-slate-100 py-4 text-center text-xs text-slate-400">
          {rowCount === 1 ? 'Showing the only entry.' : `Showing all ${rowCount} entries.`}
        </p>
      )}
    </div>
  );
}

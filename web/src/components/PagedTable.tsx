import { GENERIC_ERROR_MESSAGE } from '@afrofx/shared';
import type { ReactNode } from 'react';
import { DataView } from './DataView';
import { Table, type Column } from './Table';

/** What a paged list knows about its data. */
export interface PagedState<T> {
  rows: ReadonlyArray<T> | undefined;
  isLoading: boolean;
  isError: boolean;
  hasMore: boolean;
  isLoadingMore: boolean;
  onLoadMore: () => void;
  onRetry: () => void;
}

interface PagedTableProps<T> extends PagedState<T> {
  caption: string;
  columns: ReadonlyArray<Column<T>>;
  rowKey: (row: T) => string;
  emptyMessage: string;
  emptyDescription: ReactNode;
  loadingLabel: string;
}

/**
 * A paged list in the SPEC §4 request data view: the generic error, a spinner while the first page loads,
 * the empty fallback, then the table, which loads the next page at the bottom of the window.
 */
export function PagedTable<T>({
  rows,
  isLoading,
  isError,
  hasMore,
  isLoadingMore,
  onLoadMore,
  onRetry,
  caption,
  columns,
  rowKey,
  emptyMessage,
  emptyDescription,
  loadingLabel,
}: PagedTableProps<T>) {
  const hasRows = Boolean(rows?.length);
  return (
    <DataView
      isLoading={isLoading}
      isError={isError && !hasRows}
      isEmpty={!hasRows}
      emptyMessage={emptyMessage}
      emptyDescription={emptyDescription}
      loadingLabel={loadingLabel}
      onRetry={onRetry}
    >
      <Table
        caption={caption}
        columns={columns}
        rows={rows}
        rowKey={rowKey}
        emptyMessage={emptyMessage}
        error={isError ? GENERIC_ERROR_MESSAGE : null}
        onRetry={onRetry}
        hasMore={hasMore}
        isLoadingMore={isLoadingMore}
        onLoadMore={onLoadMore}
      />
    </DataView>
  );
}

import { GENERIC_ERROR_MESSAGE, type PagedResponse } from '@afrofx/shared';
import type { ReactNode } from 'react';
import { errorMessage } from '../api/error-message';
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

/** The parts of an RTK Query infinite query's answer over pages of `{ data, pagination }` that a list reads. */
interface InfiniteAnswer<T> {
  data?: { pages: ReadonlyArray<PagedResponse<T>> };
  isLoading: boolean;
  isError: boolean;
  error?: unknown;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
  refetch: () => unknown;
}

/** An infinite query's pages as one paged list: its rows, where it stands, and how to load more or try again. */
export function pagedRows<T>(query: InfiniteAnswer<T>): PagedState<T> {
  return {
    rows: query.data?.pages.flatMap((page) => page.data),
    isLoading: query.isLoading,
    isError: query.isError,
    hasMore: query.hasNextPage,
    isLoadingMore: query.isFetchingNextPage,
    onLoadMore: () => void query.fetchNextPage(),
    onRetry: () => void query.refetch(),
  };
}

/** The same with the total the server counted and the refusal's message, as the admin console's lists show them. */
export function pagedState<T>(
  query: InfiniteAnswer<T>,
): PagedState<T> & { total: number | undefined; errorText: string | null } {
  return {
    ...pagedRows(query),
    total: query.data?.pages.at(-1)?.pagination.count,
    errorText: query.error ? errorMessage(query.error) : null,
  };
}

interface PagedTableProps<T> extends PagedState<T> {
  caption: string;
  columns: ReadonlyArray<Column<T>>;
  rowKey: (row: T) => string;
  emptyMessage: string;
  emptyDescription?: ReactNode;
  loadingLabel: string;
  /**
   * The admin console's lists show the table's own loading rows and the server's message (this); without it, the
   * developer portal's SPEC §4 request data view frames the table (a spinner, the generic error).
   */
  errorText?: string | null;
}

/**
 * A paged list: the table loads the next page at the bottom of the window. In the developer portal it sits in the
 * SPEC §4 request data view: the generic error, a spinner while the first page loads, the empty fallback.
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
  errorText,
}: PagedTableProps<T>) {
  const hasRows = Boolean(rows?.length);
  const table = (error: string | null) => (
    <Table
      caption={caption}
      columns={columns}
      rows={rows}
      rowKey={rowKey}
      isLoading={errorText === undefined ? undefined : isLoading}
      loadingLabel={errorText === undefined ? undefined : loadingLabel}
      emptyMessage={emptyMessage}
      emptyDescription={errorText === undefined ? undefined : emptyDescription}
      error={error}
      onRetry={onRetry}
      hasMore={hasMore}
      isLoadingMore={isLoadingMore}
      onLoadMore={onLoadMore}
    />
  );
  if (errorText !== undefined) return table(errorText);
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
      {table(isError ? GENERIC_ERROR_MESSAGE : null)}
    </DataView>
  );
}

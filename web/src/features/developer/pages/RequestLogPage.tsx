import { Card } from '../../../components/Card';
import { PageHeader } from '../../../components/PageHeader';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { RequestLogView } from '../components/RequestLogView';
import type { CurrentApp } from '../current-app';
import { useFetchRequestsInfiniteQuery } from '../developer-api';
import { LOG_COUNT_NOTE, requestLogSummary } from '../request-counts';

export function RequestLogPage({ app }: { app: CurrentApp }) {
  useDocumentTitle('Request log');
  const { data, isLoading, isError, refetch, hasNextPage, fetchNextPage, isFetchingNextPage } =
    useFetchRequestsInfiniteQuery(app._id);
  const rows = data?.pages.flatMap((page) => page.data);
  const total = data?.pages.at(-1)?.pagination.count;

  return (
    <>
      <PageHeader
        title="Request log"
        description={
          <>
            Every call made with the key of <span className="font-semibold text-slate-900">{app.name}</span>
            {requestLogSummary(total)}
            <span className="mt-1 block text-xs text-slate-500" data-testid="log-count-note">
              {LOG_COUNT_NOTE}
            </span>
          </>
        }
      />
      <Card className="overflow-hidden">
        <RequestLogView
          rows={rows}
          isLoading={isLoading}
          isError={isError}
          hasMore={hasNextPage}
          isLoadingMore={isFetchingNextPage}
          onLoadMore={() => void fetchNextPage()}
          onRetry={() => void refetch()}
        />
      </Card>
    </>
  );
}

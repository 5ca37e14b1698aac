import { formatNumber } from '@afrofx/shared';
import { Card } from '../../../components/Card';
import { PageHeader } from '../../../components/PageHeader';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { RequestLogView } from '../components/RequestLogView';
import type { CurrentApp } from '../current-app';
import { useFetchRequestsInfiniteQuery } from '../developer-api';

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
            {total === undefined ? ', newest first.' : `: ${formatNumber(total, 0)} in all, newest first.`}
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

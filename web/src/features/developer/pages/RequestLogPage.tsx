import { Card } from '../../../components/Card';
import { pagedRows } from '../../../components/PagedTable';
import { PageHeader } from '../../../components/PageHeader';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { RequestLogView } from '../components/RequestLogView';
import type { CurrentApp } from '../current-app';
import { useFetchRequestsInfiniteQuery } from '../developer-api';
import { LOG_COUNT_NOTE, requestLogSummary } from '../request-counts';

export function RequestLogPage({ app }: { app: CurrentApp }) {
  useDocumentTitle('Request log');
  const requests = useFetchRequestsInfiniteQuery(app._id);
  const total = requests.data?.pages.at(-1)?.pagination.count;

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
        <RequestLogView {...pagedRows(requests)} />
      </Card>
    </>
  );
}

import { formatDateTime, formatNumber, type App } from '@afrofx/shared';
import { Card } from '../../../components/Card';
import { PageHeader } from '../../../components/PageHeader';
import { PagedTable, pagedState } from '../../../components/PagedTable';
import type { Column } from '../../../components/Table';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useFetchAllAppsInfiniteQuery } from '../admin-api';

// SPEC §2: name, creator, created at.
const columns: ReadonlyArray<Column<App>> = [
  {
    key: 'name',
    header: 'Name',
    cardTitle: true,
    cell: (app) => <span className="font-medium text-slate-900">{app.name}</span>,
  },
  {
    key: 'creator',
    header: 'Creator',
    cell: (app) => (
      <span className="flex flex-col whitespace-normal">
        <span className="text-slate-900">{`${app.user.first_name} ${app.user.last_name}`.trim()}</span>
        <span className="text-[13px] break-all text-slate-500">{app.user.email}</span>
      </span>
    ),
  },
  {
    key: 'created',
    header: 'Created at',
    cell: (app) => <span className="text-slate-500 tabular-nums">{formatDateTime(app.createdAt)}</span>,
  },
];

export function AppsPage() {
  useDocumentTitle('Apps');
  const list = pagedState(useFetchAllAppsInfiniteQuery());
  const { total } = list;

  return (
    <>
      <PageHeader
        title="Apps"
        description={
          total === undefined
            ? 'Every app developers have created, newest first.'
            : `${formatNumber(total, 0)} ${total === 1 ? 'app' : 'apps'}, newest first.`
        }
      />
      <Card className="overflow-hidden">
        <PagedTable
          {...list}
          caption="Apps"
          columns={columns}
          rowKey={(app) => app._id}
          loadingLabel="Loading apps"
          emptyMessage="Apps is empty."
          emptyDescription="Apps appear here as soon as developers create them."
        />
      </Card>
    </>
  );
}

import { formatDateTime, formatNumber, type Subscriber } from '@afrofx/shared';
import { Card } from '../../../components/Card';
import { PageHeader } from '../../../components/PageHeader';
import { PagedTable, pagedState } from '../../../components/PagedTable';
import type { Column } from '../../../components/Table';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useFetchApiWaitListInfiniteQuery } from '../admin-api';

const columns: ReadonlyArray<Column<Subscriber>> = [
  {
    key: 'email',
    header: 'E-mail',
    cardTitle: true,
    cell: (customer) => (
      <span className="font-medium break-all whitespace-normal text-slate-900">{customer.email}</span>
    ),
  },
  {
    key: 'created',
    header: 'Joined',
    cell: (customer) => (
      <span className="text-slate-500 tabular-nums">{formatDateTime(customer.createdAt)}</span>
    ),
  },
];

export function ApiWaitListPage() {
  useDocumentTitle('API Customers');
  const list = pagedState(useFetchApiWaitListInfiniteQuery());
  const { total } = list;

  return (
    <>
      <PageHeader
        title="API Customers"
        description={
          total === undefined
            ? 'Developers who signed up for the API, newest first.'
            : `${formatNumber(total, 0)} ${total === 1 ? 'developer' : 'developers'} signed up for the API, newest first.`
        }
      />
      <Card className="overflow-hidden">
        <PagedTable
          {...list}
          caption="API Customers"
          columns={columns}
          rowKey={(customer) => customer._id}
          loadingLabel="Loading API customers"
          emptyMessage="API Customers list is empty."
          emptyDescription="Developers join this list when they sign up."
        />
      </Card>
    </>
  );
}

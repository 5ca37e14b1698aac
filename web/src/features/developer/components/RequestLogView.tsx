import { formatDateTime, formatNumber, type RequestLogEntry } from '@afrofx/shared';
import { Pill, type PillTone } from '../../../components/Pill';
import type { Column } from '../../../components/Table';
import { PagedTable, type PagedState } from '../../../components/PagedTable';

function statusTone(status: number): PillTone {
  if (status >= 500) return 'red';
  if (status >= 400) return 'gold';
  if (status >= 300) return 'blue';
  return 'green';
}

const columns: ReadonlyArray<Column<RequestLogEntry>> = [
  {
    key: 'time',
    header: 'Time',
    cell: (entry) => <span className="text-slate-500 tabular-nums">{formatDateTime(entry.createdAt)}</span>,
  },
  {
    key: 'request',
    header: 'Request',
    cardTitle: true,
    cell: (entry) => (
      <>
        <span
          className="block max-w-full truncate font-mono text-[13px] text-slate-900 sm:max-w-[18rem] xl:max-w-[24rem]"
          title={entry.originalUrl}
        >
          {entry.originalUrl}
        </span>
        <span className="mt-0.5 block text-xs text-slate-500">{entry.host}</span>
      </>
    ),
  },
  {
    key: 'status',
    header: 'Status',
    cell: (entry) => (
      <span className="whitespace-nowrap">
        <Pill tone={statusTone(entry.status)}>{entry.status}</Pill>
        {entry.count > 1 && (
          <span className="ml-1.5 text-xs text-slate-600 tabular-nums" title="Answers folded into this row">
            × {formatNumber(entry.count, 0)}
          </span>
        )}
      </span>
    ),
  },
  {
    key: 'latency',
    header: 'Latency',
    align: 'right',
    cell: (entry) => <span className="tabular-nums">{formatNumber(entry.latency)} ms</span>,
  },
  {
    key: 'client',
    header: 'Client',
    className: 'sm:max-md:hidden',
    cell: (entry) => (
      <>
        <span className="block font-mono text-[13px] text-slate-700">{entry.ipAddress}</span>
        <span className="mt-0.5 block max-w-[11rem] truncate text-xs text-slate-500" title={entry.agent}>
          {entry.agent}
        </span>
      </>
    ),
  },
];

/** SPEC §4 request data view over the request log, which loads the next page at the bottom of the window. */
export function RequestLogView(state: PagedState<RequestLogEntry>) {
  return (
    <PagedTable
      caption="Request log"
      columns={columns}
      rowKey={(entry) => entry._id}
      emptyMessage="Request is empty."
      emptyDescription="Calls made with this app's private key show up here, newest first."
      loadingLabel="Loading requests"
      {...state}
    />
  );
}

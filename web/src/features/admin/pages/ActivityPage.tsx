import { ADMIN_ACTIVITY_KINDS, formatDateTime, type AdminActivityKind } from '@afrofx/shared';
import { useState } from 'react';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { PageHeader } from '../../../components/PageHeader';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useFetchActivityQuery } from '../admin-api';

const show = (value: unknown) => (value === null || value === undefined ? '' : JSON.stringify(value));

/** The audit trail: every change an admin made, newest first, filtered by admin, kind and days. */
export function ActivityPage() {
  useDocumentTitle('Activity');
  const [admin, setAdmin] = useState('');
  const [kind, setKind] = useState<AdminActivityKind | ''>('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [page, setPage] = useState(1);
  const { data, isFetching } = useFetchActivityQuery({
    page,
    admin: admin || undefined,
    kind: kind || undefined,
    from: from || undefined,
    to: to || undefined,
  });
  const field = 'mt-1 block rounded-md border border-slate-300 p-1 text-sm';
  return (
    <>
      <PageHeader
        title="Activity"
        description="Every change made in the console: who, when, what, and the reason."
      />
      <Card className="overflow-x-auto">
        <div className="flex flex-wrap gap-4 border-b border-slate-200 p-4 text-sm">
          <label>
            Admin e-mail
            <input className={field} value={admin} onChange={(e) => (setPage(1), setAdmin(e.target.value))} />
          </label>
          <label>
            Kind
            <select
              className={field}
              value={kind}
              onChange={(e) => (setPage(1), setKind(e.target.value as AdminActivityKind | ''))}
            >
              <option value="">All</option>
              {ADMIN_ACTIVITY_KINDS.map((k) => (
                <option key={k} value={k}>
                  {k}
                </option>
              ))}
            </select>
          </label>
          <label>
            From
            <input
              type="date"
              className={field}
              value={from}
              onChange={(e) => (setPage(1), setFrom(e.target.value))}
            />
          </label>
          <label>
            To
            <input
              type="date"
              className={field}
              value={to}
              onChange={(e) => (setPage(1), setTo(e.target.value))}
            />
          </label>
        </div>
        <table className="w-full text-sm">
          <caption className="sr-only">Admin activity</caption>
          <thead>
            <tr className="text-left text-slate-600">
              <th scope="col" className="p-2">
                When
              </th>
              <th scope="col" className="p-2">
                Admin
              </th>
              <th scope="col" className="p-2">
                Kind
              </th>
              <th scope="col" className="p-2">
                Action
              </th>
              <th scope="col" className="p-2">
                Target
              </th>
              <th scope="col" className="p-2">
                Before → after
              </th>
              <th scope="col" className="p-2">
                Reason
              </th>
            </tr>
          </thead>
          <tbody>
            {(data?.data ?? []).map((entry) => (
              <tr key={entry._id} className="border-t border-slate-100 align-top">
                <td className="p-2 tabular-nums">{formatDateTime(entry.createdAt)}</td>
                <td className="p-2">{entry.admin}</td>
                <td className="p-2">{entry.kind}</td>
                <td className="p-2">{entry.action}</td>
                <td className="p-2 break-all">{entry.target}</td>
                <td className="max-w-md p-2 font-mono text-xs break-all">
                  {entry.before !== null && entry.before !== undefined ? `${show(entry.before)} → ` : ''}
                  {show(entry.after)}
                </td>
                <td className="p-2">{entry.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {!isFetching && data?.data.length === 0 && <p className="p-4 text-slate-600">No activity matches.</p>}
        <div className="flex gap-2 p-4">
          <Button variant="secondary" size="sm" disabled={page === 1} onClick={() => setPage((p) => p - 1)}>
            Newer
          </Button>
          <Button
            variant="secondary"
            size="sm"
            disabled={!data?.pagination.next}
            onClick={() => setPage((p) => p + 1)}
          >
            Older
          </Button>
        </div>
      </Card>
    </>
  );
}

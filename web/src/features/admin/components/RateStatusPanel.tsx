import { MARKET_LABELS, OFFICIAL_SOURCE_ATTRIBUTION, formatDateTime, type RateStatus } from '@afrofx/shared';
import { Card } from '../../../components/Card';
import { DataView } from '../../../components/DataView';
import { Pill } from '../../../components/Pill';

const SOURCE_NAMES: Record<RateStatus['officialSources'][number]['source'], string> = {
  cbn: 'Central Bank of Nigeria',
  cbk: 'Central Bank of Kenya',
  sarb: 'South African Reserve Bank',
  bog: 'Bank of Ghana',
};

const when = (at: string | null) => (at ? formatDateTime(at) : 'never');

interface RateStatusPanelProps {
  status: RateStatus | undefined;
  isLoading: boolean;
  isError: boolean;
  onRetry: () => void;
}

/**
 * The morning at a glance: each market against its publication deadline (red once it is past with nothing
 * published today), and each central bank's last import (red while its last attempt failed).
 */
export function RateStatusPanel({ status, isLoading, isError, onRetry }: RateStatusPanelProps) {
  return (
    <Card className="mb-6 overflow-hidden">
      <h2 className="border-b border-slate-100 px-5 py-4 text-base font-semibold text-slate-900 sm:px-6">
        Publication and official sources
      </h2>
      <DataView
        isLoading={isLoading}
        isError={isError}
        isEmpty={false}
        emptyMessage=""
        loadingLabel="Loading the rate status"
        onRetry={onRetry}
      >
        <ul className="divide-y divide-slate-100" aria-label="Markets">
          {status?.markets.map((m) => (
            <li key={m.market} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-5 py-3 sm:px-6">
              {m.overdue ? <Pill tone="red">Overdue</Pill> : <Pill tone="green">On time</Pill>}
              <span className="font-medium text-slate-900">{MARKET_LABELS[m.market]}</span>
              <span className="text-sm text-slate-500 tabular-nums">
                due {m.deadline} ({status.timeZone}), last published {when(m.lastPublishedAt)}
              </span>
            </li>
          ))}
        </ul>
        <ul className="divide-y divide-slate-100 border-t border-slate-100" aria-label="Official sources">
          {status?.officialSources.map((s) => (
            <li key={s.source} className="flex flex-col gap-1 px-5 py-3 sm:px-6">
              <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                {s.state === 'down' ? (
                  <Pill tone="red">Down</Pill>
                ) : s.state === 'up' ? (
                  <Pill tone="green">Up</Pill>
                ) : (
                  <Pill tone="slate">Not run yet</Pill>
                )}
                <span className="font-medium text-slate-900">{SOURCE_NAMES[s.source]}</span>
                <span className="text-sm text-slate-500 tabular-nums">
                  last success {when(s.lastSuccessAt)}, last failure {when(s.lastFailureAt)}
                  {s.latestRateDate ? `, figures to ${s.latestRateDate}` : ''}
                </span>
              </div>
              {s.state === 'down' && s.lastError ? (
                <p className="text-sm text-red-700">{s.lastError}</p>
              ) : null}
              <p className="text-xs text-slate-500">{OFFICIAL_SOURCE_ATTRIBUTION[s.source]}</p>
            </li>
          ))}
        </ul>
      </DataView>
    </Card>
  );
}

import { formatDateTime, type RateStatus } from '@afrofx/shared';
import { Pill } from '../../../components/Pill';

/** One market against its publication deadline on the desk: red once it is past with nothing published today. */
export function MarketDeadline({
  status,
  timeZone,
}: {
  status: RateStatus['markets'][number] | undefined;
  timeZone: string | undefined;
}) {
  if (!status) return <div className="text-sm" />;
  return (
    <div data-market-status={status.market} className="flex items-center gap-2 text-sm text-slate-600">
      {status.overdue ? <Pill tone="red">Overdue</Pill> : <Pill tone="green">On time</Pill>}
      <span className="tabular-nums">
        due {status.deadline} ({timeZone}), last published{' '}
        {status.lastPublishedAt ? formatDateTime(status.lastPublishedAt) : 'never'}
      </span>
    </div>
  );
}

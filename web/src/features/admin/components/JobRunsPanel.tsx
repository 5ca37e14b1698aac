import { formatDateTime, formatNumber, type JobRun, type JobRunState } from '@afrofx/shared';
import { Card } from '../../../components/Card';
import { DataView } from '../../../components/DataView';
import { Pill, type PillTone } from '../../../components/Pill';

const JOB_LABELS: Record<JobRun['name'], string> = {
  'rates-mail': 'Rates mail',
  'rates-csv': 'Rates CSV export',
  'rates-tweet': 'Rates tweet',
};

const STATES: Record<JobRunState, { label: string; tone: PillTone }> = {
  queued: { label: 'Queued', tone: 'slate' },
  running: { label: 'Running', tone: 'blue' },
  done: { label: 'Done', tone: 'green' },
  failed: { label: 'Failed', tone: 'red' },
};

/** A run that ended but did not do all it was asked is a warning, never a green done. */
const stateOf = (run: JobRun) =>
  run.state === 'done' && run.warning ? { label: 'Warning', tone: 'gold' as PillTone } : STATES[run.state];

/** True while a run may still change, so the screen keeps asking. */
export const isJobRunActive = (run: JobRun) => run.state === 'queued' || run.state === 'running';

function RunDetail({ run }: { run: JobRun }) {
  if (run.state === 'failed') {
    return <p className="text-sm text-red-700">{run.error ?? 'The job failed.'}</p>;
  }
  if (run.state === 'running' && run.total !== null) {
    const percent = run.total === 0 ? 100 : Math.round((run.progress / run.total) * 100);
    return (
      <div className="flex items-center gap-3">
        <div
          role="progressbar"
          aria-label={`${JOB_LABELS[run.name]} progress`}
          aria-valuemin={0}
          aria-valuemax={run.total}
          aria-valuenow={run.progress}
          className="h-1.5 w-32 overflow-hidden rounded-full bg-slate-100"
        >
          <div className="h-full bg-brand-600" style={{ width: `${percent}%` }} />
        </div>
        <span className="text-sm text-slate-600 tabular-nums">
          {formatNumber(run.progress, 0)} of {formatNumber(run.total, 0)}
        </span>
      </div>
    );
  }
  if (run.state === 'done' && run.warning) {
    return <p className="text-sm text-amber-800">{run.warning}</p>;
  }
  const counts = Object.entries(run.counts);
  if (run.state === 'done' && counts.length > 0) {
    return (
      <p className="text-sm text-slate-600 tabular-nums">
        {counts.map(([what, n]) => `${formatNumber(n, 0)} ${what}`).join(', ')}
      </p>
    );
  }
  return null;
}

interface JobRunsPanelProps {
  runs: JobRun[] | undefined;
  isLoading: boolean;
  isError: boolean;
  onRetry: () => void;
}

/** The last runs of the jobs this screen starts: queued, running with progress, done with counts, failed why. */
export function JobRunsPanel({ runs, isLoading, isError, onRetry }: JobRunsPanelProps) {
  return (
    <Card className="mb-6 overflow-hidden">
      <h2 className="border-b border-slate-100 px-5 py-4 text-base font-semibold text-slate-900 sm:px-6">
        Recent jobs
      </h2>
      <DataView
        isLoading={isLoading}
        isError={isError}
        isEmpty={runs?.length === 0}
        emptyMessage="No jobs yet."
        emptyDescription="Sending the rates mail or tweets, or exporting rates, shows its progress here."
        loadingLabel="Loading recent jobs"
        onRetry={onRetry}
      >
        <ul className="divide-y divide-slate-100" aria-label="Recent jobs">
          {runs?.map((run) => (
            <li
              key={run._id}
              className="flex flex-col gap-2 px-5 py-3 sm:flex-row sm:items-center sm:justify-between sm:px-6"
            >
              <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                <Pill tone={stateOf(run).tone}>{stateOf(run).label}</Pill>
                <span className="font-medium whitespace-nowrap text-slate-900">{JOB_LABELS[run.name]}</span>
                <span className="text-sm text-slate-500 tabular-nums">{formatDateTime(run.createdAt)}</span>
              </div>
              <RunDetail run={run} />
            </li>
          ))}
        </ul>
      </DataView>
    </Card>
  );
}

import type { JobRun } from '@afrofx/shared';
import { render, screen, within } from '@testing-library/react';
import { isJobRunActive, JobRunsPanel } from './JobRunsPanel';

const run = (overrides: Partial<JobRun>): JobRun => ({
  _id: 'r1',
  name: 'rates-mail',
  state: 'queued',
  progress: 0,
  total: null,
  counts: {},
  attempts: 0,
  error: null,
  warning: null,
  createdAt: '2026-03-01T08:00:00.000Z',
  startedAt: null,
  finishedAt: null,
  ...overrides,
});

function renderPanel(runs: JobRun[] | undefined, state: { isLoading?: boolean; isError?: boolean } = {}) {
  render(
    <JobRunsPanel
      runs={runs}
      isLoading={state.isLoading ?? false}
      isError={state.isError ?? false}
      onRetry={() => undefined}
    />,
  );
}

describe('recent jobs panel', () => {
  it('says so when no job has run yet', () => {
    renderPanel([]);
    expect(screen.getByText('No jobs yet.')).toBeInTheDocument();
  });

  it('shows each run with its state: queued, running with progress, done with counts, failed with the reason', () => {
    renderPanel([
      run({ _id: 'q', name: 'rates-tweet' }),
      run({ _id: 'r', state: 'running', progress: 250, total: 1000 }),
      run({ _id: 'd', state: 'done', progress: 3, total: 3, counts: { sent: 3 } }),
      run({ _id: 'f', name: 'rates-csv', state: 'failed', error: 'connect ECONNREFUSED 127.0.0.1:1' }),
    ]);
    const [queued, running, done, failed] = within(
      screen.getByRole('list', { name: 'Recent jobs' }),
    ).getAllByRole('listitem');
    expect(queued).toHaveTextContent('QueuedRates tweet');
    expect(running).toHaveTextContent('Running');
    expect(within(running!).getByRole('progressbar', { name: 'Rates mail progress' })).toHaveAttribute(
      'aria-valuenow',
      '250',
    );
    expect(running).toHaveTextContent('250 of 1,000');
    expect(done).toHaveTextContent('Done');
    expect(done).toHaveTextContent('3 sent');
    expect(failed).toHaveTextContent('FailedRates CSV export');
    expect(failed).toHaveTextContent('connect ECONNREFUSED 127.0.0.1:1');
  });

  it('shows a tweet recorded but not posted as a warning, never a green done', () => {
    const warning = 'Recorded, not posted: no Twitter credentials are configured.';
    renderPanel([run({ name: 'rates-tweet', state: 'done', counts: { 'not posted': 1 }, warning })]);
    const [item] = within(screen.getByRole('list', { name: 'Recent jobs' })).getAllByRole('listitem');
    expect(item).toHaveTextContent(`WarningRates tweet`);
    expect(item).toHaveTextContent(warning);
    expect(item).not.toHaveTextContent('Done');
  });

  it('counts a run as active only while it is queued or running', () => {
    expect(
      ['queued', 'running', 'done', 'failed'].map((state) =>
        isJobRunActive(run({ state } as Partial<JobRun>)),
      ),
    ).toEqual([true, true, false, false]);
  });
});

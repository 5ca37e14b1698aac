import { formatDateTime, formatNumber, type Subscriber } from '@afrofx/shared';
import { useState } from 'react';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { Pill } from '../../../components/Pill';
import { PagedTable, pagedState } from '../../../components/PagedTable';
import type { Column } from '../../../components/Table';
import { showToast } from '../../../lib/toast';
import { useDocumentTitle } from '../../../lib/use-document-title';
import {
  useFetchJobRunsQuery,
  useFetchMailingListInfiniteQuery,
  useFetchRateStatusQuery,
  useRemoveEmailMutation,
  useSendRatesMailMutation,
  useSendTweetMutation,
} from '../admin-api';
import { PageHeader } from '../../../components/PageHeader';
import { isJobRunActive, JobRunsPanel } from '../components/JobRunsPanel';
import { RateStatusPanel } from '../components/RateStatusPanel';

// How often the recent jobs are asked for while one of them is queued or running; not at all otherwise.
const JOB_POLL_MS = 2000;
// The admin home keeps the deadlines and the official sources current while it is open.
const RATE_STATUS_POLL_MS = 60_000;

type Confirm = { kind: 'tweet' } | { kind: 'mail' } | { kind: 'remove'; subscriber: Subscriber };

export function EmailsPage() {
  useDocumentTitle('Emails');
  const [confirm, setConfirm] = useState<Confirm | null>(null);
  const close = () => setConfirm(null);
  const list = pagedState(useFetchMailingListInfiniteQuery());
  const [sendTweet, tweetState] = useSendTweetMutation();
  const [sendRatesMail, mailState] = useSendRatesMailMutation();
  const [removeEmail, removeState] = useRemoveEmailMutation();
  const [jobsActive, setJobsActive] = useState(false);
  const jobRuns = useFetchJobRunsQuery(undefined, {
    pollingInterval: jobsActive ? JOB_POLL_MS : 0,
    refetchOnMountOrArgChange: true,
  });
  const anyJobActive = jobRuns.data?.data.some(isJobRunActive) ?? false;
  // The hook's options come before its answer: the answer sets the polling of the renders after it.
  if (anyJobActive !== jobsActive) setJobsActive(anyJobActive);

  const rateStatus = useFetchRateStatusQuery(undefined, {
    pollingInterval: RATE_STATUS_POLL_MS,
    refetchOnMountOrArgChange: true,
  });
  const count = list.total;

  // Errors are toasted by the API layer, in the success style on this screen (SPEC §8).
  const onConfirm = async () => {
    if (!confirm) return;
    const result =
      confirm.kind === 'tweet'
        ? await sendTweet()
        : confirm.kind === 'mail'
          ? await sendRatesMail()
          : await removeEmail(confirm.subscriber._id);
    if (result.data) {
      showToast(result.data.message, 'success');
      // The new run shows as queued at once, and its being active starts the polling.
      if (confirm.kind !== 'remove') void jobRuns.refetch();
    }
    close();
  };

  const columns: ReadonlyArray<Column<Subscriber>> = [
    {
      key: 'email',
      header: 'E-mail',
      cardTitle: true,
      cell: (subscriber) => <span className="font-medium text-slate-900">{subscriber.email}</span>,
    },
    {
      key: 'status',
      header: 'Status',
      cell: (subscriber) =>
        subscriber.isActivated ? <Pill tone="green">Active</Pill> : <Pill tone="slate">InActive</Pill>,
    },
    {
      key: 'created',
      header: 'Created',
      cell: (subscriber) => (
        <span className="text-slate-500 tabular-nums">{formatDateTime(subscriber.createdAt)}</span>
      ),
    },
    {
      key: 'actions',
      header: <span className="sr-only">Actions</span>,
      align: 'right',
      cell: (subscriber) => (
        <Button
          variant="ghost-danger"
          size="sm"
          onClick={() => setConfirm({ kind: 'remove', subscriber })}
          aria-label={`Remove ${subscriber.email}`}
        >
          Remove email
        </Button>
      ),
    },
  ];

  const dialogs = {
    tweet: {
      title: 'Send tweets?',
      message: 'Today’s rates will be posted from the AfroFX Twitter account.',
      confirmLabel: 'Send Tweets',
      tone: 'primary',
    },
    mail: {
      title: 'Send the rates mail?',
      message: 'Today’s rates will be e-mailed to every activated subscriber.',
      confirmLabel: 'Send Rates Mail',
      tone: 'primary',
    },
    remove: {
      title: 'Remove this e-mail?',
      message:
        confirm?.kind === 'remove'
          ? `${confirm.subscriber.email} will be taken off the mailing list and stop receiving rates.`
          : '',
      confirmLabel: 'Remove email',
      tone: 'danger',
    },
  } as const;
  const dialog = confirm ? dialogs[confirm.kind] : null;

  return (
    <>
      <PageHeader title="Emails" description="People who asked for the daily rates e-mail." />
      <Card className="mb-6 flex flex-col gap-5 p-5 sm:flex-row sm:items-center sm:justify-between sm:p-6">
        <div>
          <p className="text-sm font-medium text-slate-500">Subscribers</p>
          <p
            className="mt-1 text-3xl font-bold tracking-tight text-slate-900 tabular-nums"
            data-testid="subscriber-count"
          >
            {count === undefined ? '—' : formatNumber(count, 0)}
          </p>
        </div>
        <div className="flex flex-col gap-2 sm:items-end">
          <p className="text-sm text-slate-500">Share today’s rates</p>
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" onClick={() => setConfirm({ kind: 'tweet' })}>
              Send Tweets
            </Button>
            <Button onClick={() => setConfirm({ kind: 'mail' })}>Send Rates Mail</Button>
          </div>
        </div>
      </Card>
      <RateStatusPanel
        status={rateStatus.data?.data}
        isLoading={rateStatus.isLoading}
        isError={rateStatus.isError}
        onRetry={() => void rateStatus.refetch()}
      />
      <JobRunsPanel
        runs={jobRuns.data?.data}
        isLoading={jobRuns.isLoading}
        isError={jobRuns.isError}
        onRetry={() => void jobRuns.refetch()}
      />
      <Card className="overflow-hidden">
        <PagedTable
          {...list}
          caption="Mailing list"
          columns={columns}
          rowKey={(subscriber) => subscriber._id}
          loadingLabel="Loading the mailing list"
          emptyMessage="Mailing list is empty."
          emptyDescription="Addresses appear here as soon as visitors subscribe on the home page."
        />
      </Card>
      <ConfirmDialog
        open={dialog !== null}
        title={dialog?.title ?? ''}
        message={dialog?.message ?? ''}
        confirmLabel={dialog?.confirmLabel ?? ''}
        tone={dialog?.tone ?? 'primary'}
        isLoading={tweetState.isLoading || mailState.isLoading || removeState.isLoading}
        onConfirm={() => void onConfirm()}
        onCancel={close}
      />
    </>
  );
}

import {
  ASSET_DISPLAY,
  BASE_DISPLAY,
  baseSymbol,
  formatDateTime,
  formatNumber,
  MARKET_LABELS,
  type AdminRate,
  type AdminRatesFilter,
  type Rate,
  type RateInput,
} from '@afrofx/shared';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { Flag } from '../../../components/Flag';
import { Input } from '../../../components/Input';
import { Modal } from '../../../components/Modal';
import { Pill, type PillTone } from '../../../components/Pill';
import { PagedTable, pagedState } from '../../../components/PagedTable';
import type { Column } from '../../../components/Table';
import { readAdminSession } from '../../../lib/session';
import { showToast } from '../../../lib/toast';
import { useDocumentTitle } from '../../../lib/use-document-title';
import {
  useCreateRateMutation,
  useDeleteRateMutation,
  useEditRateMutation,
  useExportRatesMutation,
  useFetchAllRatesInfiniteQuery,
  useFetchLatestRatesQuery,
} from '../admin-api';
import { ExportRatesForm } from '../components/ExportRatesForm';
import { PageHeader } from '../../../components/PageHeader';
import { RateForm } from '../components/RateForm';
import { filterFromParams, RateFilters, rangeError } from '../components/RateFilters';

type Dialog =
  { kind: 'add' } | { kind: 'edit'; rate: Rate } | { kind: 'delete'; rate: Rate } | { kind: 'export' };

const marketTone: Record<Rate['market'], PillTone> = {
  bank: 'blue',
  black_market_cash: 'green',
  black_market_transfer: 'gold',
};

export function RatesPage() {
  useDocumentTitle('Rates');
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const close = () => setDialog(null);
  const [params, setParams] = useSearchParams();
  const filter = filterFromParams(params);
  const filtered = Object.keys(filter).length > 0;
  const ratesQuery = useFetchAllRatesInfiniteQuery(filter, { skip: Boolean(rangeError(filter)) });
  // Another filter is another list: the previous one's rows do not stay on screen while it loads.
  const list = pagedState({
    ...ratesQuery,
    data: ratesQuery.currentData,
    isLoading: ratesQuery.isFetching && !ratesQuery.currentData,
  });
  const setFilter = (name: keyof AdminRatesFilter, value: string | undefined) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { replace: true },
    );
  const [createRate, createState] = useCreateRateMutation();
  const [editRate, editState] = useEditRateMutation();
  const [deleteRate, deleteState] = useDeleteRateMutation();
  const [exportRates, exportState] = useExportRatesMutation();

  // The rate form asks before saving a price far from the latest of its market, asset and base (as the site shows).
  const latestBank = useFetchLatestRatesQuery('bank').data;
  const latestCash = useFetchLatestRatesQuery('black_market_cash').data;
  const latestTransfer = useFetchLatestRatesQuery('black_market_transfer').data;
  const latestRates = [...(latestBank ?? []), ...(latestCash ?? []), ...(latestTransfer ?? [])];

  const { total } = list;
  const described =
    total === undefined
      ? 'Every rate entered, newest first.'
      : filtered
        ? `${formatNumber(total, 0)} rates match these filters, newest first.`
        : `${formatNumber(total, 0)} rates entered, newest first.`;

  const done = (result: { data?: { message: string } }) => {
    if (!result.data) return;
    showToast(result.data.message, 'success');
    close();
  };

  // A correction and a withdrawal keep the old figure as a revision; the reason goes with it.
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | undefined>();
  const reasonGiven = () => {
    if (reason.trim().length >= 3) return true;
    setReasonError('Say why, in a few words (at least 3 characters).');
    return false;
  };
  const openDialog = (next: Dialog) => {
    setReason('');
    setReasonError(undefined);
    setDialog(next);
  };

  const save = async (input: RateInput) => {
    if (dialog?.kind === 'edit') {
      if (!reasonGiven()) return;
      done(await editRate({ id: dialog.rate._id, body: { ...input, reason: reason.trim() } }));
    } else done(await createRate(input));
  };
  const reasonField = (label: string) => (
    <div className="mb-4">
      <Input
        label={label}
        value={reason}
        error={reasonError}
        onChange={(event) => {
          setReason(event.target.value);
          setReasonError(undefined);
        }}
      />
    </div>
  );

  const columns: ReadonlyArray<Column<AdminRate>> = [
    {
      key: 'asset',
      header: 'Asset',
      cardTitle: true,
      cell: (rate) => (
        <span className="inline-flex items-center gap-2 font-semibold text-slate-900">
          <Flag asset={rate.asset} decorative />
          {ASSET_DISPLAY[rate.asset].code}
        </span>
      ),
    },
    { key: 'base', header: 'Base', cell: (rate) => BASE_DISPLAY[rate.base].code },
    {
      key: 'sell',
      header: 'Sell',
      align: 'right',
      cell: (rate) => (
        <span className="tabular-nums">{`${baseSymbol(rate.base)}${formatNumber(rate.sell)}`}</span>
      ),
    },
    {
      key: 'buy',
      header: 'Buy',
      align: 'right',
      cell: (rate) => (
        <span className="tabular-nums">{`${baseSymbol(rate.base)}${formatNumber(rate.buy)}`}</span>
      ),
    },
    {
      key: 'market',
      header: 'Market',
      cell: (rate) => <Pill tone={marketTone[rate.market]}>{MARKET_LABELS[rate.market]}</Pill>,
    },
    {
      key: 'created',
      header: 'Published',
      cell: (rate) => <span className="text-slate-500 tabular-nums">{formatDateTime(rate.createdAt)}</span>,
    },
    {
      key: 'source',
      header: 'Source',
      cell: (rate) => (
        <span className="text-slate-600">
          {rate.source}
          {rate.revision > 0 ? ` · revision ${rate.revision}` : ''}
          {rate.publishedBy ? <span className="block text-xs">{rate.publishedBy}</span> : null}
        </span>
      ),
    },
    {
      key: 'actions',
      header: <span className="sr-only">Actions</span>,
      align: 'right',
      cell: (rate) => {
        const name = `${ASSET_DISPLAY[rate.asset].code}/${BASE_DISPLAY[rate.base].code} ${MARKET_LABELS[rate.market]} rate`;
        return (
          <div className="flex justify-end gap-1">
            <Button
              variant="ghost"
              size="sm"
              onClick={() => openDialog({ kind: 'edit', rate })}
              aria-label={`Edit ${name}`}
            >
              Edit
            </Button>
            <Button
              variant="ghost-danger"
              size="sm"
              onClick={() => openDialog({ kind: 'delete', rate })}
              aria-label={`Delete ${name}`}
            >
              Delete
            </Button>
          </div>
        );
      },
    },
  ];

  return (
    <>
      <PageHeader
        title="Rates"
        description={described}
        actions={
          <>
            <Button variant="secondary" onClick={() => setDialog({ kind: 'export' })}>
              Export Rates
            </Button>
            <Button onClick={() => setDialog({ kind: 'add' })}>Add Rates</Button>
          </>
        }
      />
      <Card className="overflow-hidden">
        <RateFilters filter={filter} onChange={setFilter} onClear={() => setParams({}, { replace: true })} />
        <PagedTable
          {...list}
          caption="Rates"
          columns={columns}
          rowKey={(rate) => rate._id}
          loadingLabel="Loading rates"
          emptyMessage={filtered ? 'No rates match these filters' : 'Rates is empty.'}
          emptyDescription={
            filtered
              ? 'Widen the days or choose another market or pair.'
              : 'Add the first rate to publish it on the home page.'
          }
        />
      </Card>

      <Modal
        open={dialog?.kind === 'add' || dialog?.kind === 'edit'}
        title={dialog?.kind === 'edit' ? 'Edit rate' : 'Add rate'}
        description={
          dialog?.kind === 'edit'
            ? 'Changes show on the home page straight away.'
            : 'The new rate becomes the latest for its market, asset and base.'
        }
        onClose={close}
      >
        {dialog?.kind === 'edit' && reasonField('Reason for the correction')}
        <RateForm
          rate={dialog?.kind === 'edit' ? dialog.rate : undefined}
          latestRates={latestRates}
          isSubmitting={createState.isLoading || editState.isLoading}
          onSubmit={(input) => void save(input)}
          onCancel={close}
        />
      </Modal>

      <Modal
        open={dialog?.kind === 'export'}
        title="Export rates"
        description="We’ll e-mail a CSV file of every rate to this address."
        onClose={close}
        size="sm"
      >
        <ExportRatesForm
          defaultEmail={readAdminSession()?.userData.email ?? ''}
          isSubmitting={exportState.isLoading}
          onSubmit={(email) => void exportRates({ email }).then(done)}
          onCancel={close}
        />
      </Modal>

      <Modal
        open={dialog?.kind === 'delete'}
        title="Delete this rate?"
        description={
          dialog?.kind === 'delete'
            ? `The ${ASSET_DISPLAY[dialog.rate.asset].code}/${BASE_DISPLAY[dialog.rate.base].code} ${MARKET_LABELS[dialog.rate.market].toLowerCase()} rate of ${formatDateTime(dialog.rate.createdAt)} will be withdrawn: hidden from the site and the API, and kept with the reason.`
            : ''
        }
        onClose={close}
        size="sm"
      >
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (dialog?.kind === 'delete' && reasonGiven())
              void deleteRate({ id: dialog.rate._id, reason: reason.trim() }).then(done);
          }}
        >
          {reasonField('Reason for withdrawing it')}
          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <Button type="button" variant="secondary" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" variant="danger" isLoading={deleteState.isLoading}>
              Delete
            </Button>
          </div>
        </form>
      </Modal>
    </>
  );
}

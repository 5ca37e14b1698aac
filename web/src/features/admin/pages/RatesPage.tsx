import {
  ASSET_DISPLAY,
  BASE_DISPLAY,
  baseSymbol,
  formatDateTime,
  formatNumber,
  MARKET_LABELS,
  type AdminRatesFilter,
  type Rate,
  type RateInput,
} from '@afrofx/shared';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
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

  const save = async (input: RateInput) => {
    if (dialog?.kind === 'edit') done(await editRate({ id: dialog.rate._id, body: input }));
    else done(await createRate(input));
  };

  const columns: ReadonlyArray<Column<Rate>> = [
    {
      key: 'asset',
      header: 'Asset',
      cardTitle: true,
      cell: (rate) => (
        <span className="inline-flex items-center gap-2 font-semibold text-slate-900">
          <span className="text-lg leading-none" aria-hidden="true">
            {ASSET_DISPLAY[rate.asset].flag}
          </span>
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
      header: 'Created',
      cell: (rate) => <span className="text-slate-500 tabular-nums">{formatDateTime(rate.createdAt)}</span>,
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
              onClick={() => setDialog({ kind: 'edit', rate })}
              aria-label={`Edit ${name}`}
            >
              Edit
            </Button>
            <Button
              variant="ghost-danger"
              size="sm"
              onClick={() => setDialog({ kind: 'delete', rate })}
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

      <ConfirmDialog
        open={dialog?.kind === 'delete'}
        title="Delete this rate?"
        message={
          dialog?.kind === 'delete'
            ? `The ${ASSET_DISPLAY[dialog.rate.asset].code}/${BASE_DISPLAY[dialog.rate.base].code} ${MARKET_LABELS[dialog.rate.market].toLowerCase()} rate of ${formatDateTime(dialog.rate.createdAt)} will be removed. This cannot be undone.`
            : ''
        }
        confirmLabel="Delete"
        tone="danger"
        isLoading={deleteState.isLoading}
        onConfirm={() => {
          if (dialog?.kind === 'delete') void deleteRate(dialog.rate._id).then(done);
        }}
        onCancel={close}
      />
    </>
  );
}

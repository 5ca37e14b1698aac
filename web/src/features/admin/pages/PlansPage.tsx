import { formatDateTime, formatNumber, type Feature, type Plan, type PlanInput } from '@afrofx/shared';
import { useState } from 'react';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { Modal } from '../../../components/Modal';
import { PageHeader } from '../../../components/PageHeader';
import { PagedTable, pagedState } from '../../../components/PagedTable';
import { Pill } from '../../../components/Pill';
import type { Column } from '../../../components/Table';
import { showToast } from '../../../lib/toast';
import { useDocumentTitle } from '../../../lib/use-document-title';
import {
  useAddFeatureToPlanMutation,
  useCreatePlanMutation,
  useDeletePlanMutation,
  useEditPlanMutation,
  useFetchAdminPlansInfiniteQuery,
  useRemoveFeatureFromPlanMutation,
} from '../admin-api';
import { PlanFeatures } from '../components/PlanFeatures';
import { PlanForm } from '../components/PlanForm';

// The features dialog holds the plan's id, not the plan, so it shows the list as refetched after each change.
type Dialog =
  | { kind: 'create' }
  | { kind: 'edit'; plan: Plan }
  | { kind: 'delete'; plan: Plan }
  | { kind: 'features'; planId: string };

export function PlansPage() {
  useDocumentTitle('Plans');
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const close = () => setDialog(null);
  const list = pagedState(useFetchAdminPlansInfiniteQuery());
  const [createPlan, createState] = useCreatePlanMutation();
  const [editPlan, editState] = useEditPlanMutation();
  const [deletePlan, deleteState] = useDeletePlanMutation();
  const [addFeature, addState] = useAddFeatureToPlanMutation();
  const [removeFeature] = useRemoveFeatureFromPlanMutation();
  const [removingId, setRemovingId] = useState<string | null>(null);

  const plans = list.rows;
  const { total } = list;
  const featuresOf =
    dialog?.kind === 'features' ? plans?.find((plan) => plan._id === dialog.planId) : undefined;

  const done = (result: { data?: { message: string } }) => {
    if (!result.data) return;
    showToast(result.data.message, 'success');
    close();
  };

  const save = async (input: PlanInput) => {
    if (dialog?.kind === 'edit') done(await editPlan({ id: dialog.plan._id, body: input }));
    else done(await createPlan(input));
  };

  const add = async (title: string) => {
    if (!featuresOf) return false;
    const result = await addFeature({ planId: featuresOf._id, title });
    if (result.data) showToast(result.data.message, 'success');
    return Boolean(result.data);
  };

  /** A draft goes on sale (and a plan off sale) by an edit that keeps everything else. */
  const setOnSale = async (plan: Plan, onSale: boolean) => {
    const { name, amount, numberOfRequest, entitlements } = plan;
    const result = await editPlan({
      id: plan._id,
      body: { name, amount, numberOfRequest, entitlements, onSale },
    });
    if (result.data)
      showToast(onSale ? `${plan.name} is on sale.` : `${plan.name} is off sale: a draft again.`, 'success');
  };

  const remove = async (feature: Feature) => {
    if (!featuresOf) return;
    setRemovingId(feature._id);
    const result = await removeFeature({ planId: featuresOf._id, featureId: feature._id });
    setRemovingId(null);
    if (result.data) showToast(result.data.message, 'success');
  };

  const columns: ReadonlyArray<Column<Plan>> = [
    {
      key: 'name',
      header: 'Name',
      cardTitle: true,
      cell: (plan) => <span className="font-semibold text-slate-900">{plan.name}</span>,
    },
    {
      key: 'sale',
      header: 'Sale',
      cell: (plan) => (plan.onSale ? <Pill tone="green">On sale</Pill> : <Pill tone="slate">Draft</Pill>),
    },
    {
      key: 'amount',
      header: 'Amount',
      align: 'right',
      cell: (plan) => (
        <span className="tabular-nums">
          ${formatNumber(plan.amount)} <span className="text-xs text-slate-500">/ year</span>
        </span>
      ),
    },
    {
      key: 'requests',
      header: 'Requests',
      align: 'right',
      cell: (plan) => (
        <span className="tabular-nums">
          {formatNumber(plan.numberOfRequest, 0)} <span className="text-xs text-slate-500">/ month</span>
        </span>
      ),
    },
    {
      key: 'features',
      header: 'Features',
      cell: (plan) => (
        <Button
          variant="ghost"
          size="sm"
          className="-ml-3"
          onClick={() => setDialog({ kind: 'features', planId: plan._id })}
          aria-label={`Features of ${plan.name}`}
        >
          {plan.features.length === 1 ? '1 feature' : `${plan.features.length} features`}
        </Button>
      ),
    },
    {
      key: 'created',
      header: 'Created',
      className: 'sm:max-md:hidden',
      cell: (plan) => (
        <span className="block min-w-24 whitespace-normal text-slate-500 tabular-nums">
          {formatDateTime(plan.createdAt)}
        </span>
      ),
    },
    {
      key: 'actions',
      header: <span className="sr-only">Actions</span>,
      align: 'right',
      cell: (plan) => (
        <div className="flex justify-end gap-1">
          <Button
            variant="ghost"
            size="sm"
            className="whitespace-nowrap"
            disabled={editState.isLoading}
            onClick={() => void setOnSale(plan, !plan.onSale)}
            aria-label={plan.onSale ? `Take ${plan.name} off sale` : `Put ${plan.name} on sale`}
          >
            {plan.onSale ? 'Take off sale' : 'Put on sale'}
          </Button>
          <Button
            variant="ghost"
            size="sm"
            onClick={() => setDialog({ kind: 'edit', plan })}
            aria-label={`Edit ${plan.name}`}
          >
            Edit
          </Button>
          <Button
            variant="ghost-danger"
            size="sm"
            onClick={() => setDialog({ kind: 'delete', plan })}
            aria-label={`Delete ${plan.name}`}
          >
            Delete
          </Button>
        </div>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title="Plans"
        description={
          total === undefined
            ? 'The yearly API plans, newest first. A new plan is a draft until you put it on sale.'
            : `${formatNumber(total, 0)} ${total === 1 ? 'plan' : 'plans'}, newest first. A new plan is a draft until you put it on sale.`
        }
        actions={<Button onClick={() => setDialog({ kind: 'create' })}>Create Plan</Button>}
      />
      <Card className="overflow-hidden">
        <PagedTable
          {...list}
          caption="Plans"
          columns={columns}
          rowKey={(plan) => plan._id}
          loadingLabel="Loading plans"
          emptyMessage="Plans is empty."
          emptyDescription="Create a plan to put it on sale on the API page and in the developer portal."
        />
      </Card>

      <Modal
        open={dialog?.kind === 'create' || dialog?.kind === 'edit'}
        title={dialog?.kind === 'edit' ? 'Edit plan' : 'Create plan'}
        description={
          dialog?.kind === 'edit'
            ? 'New buyers get the new price and quota; subscriptions already sold keep theirs.'
            : 'A yearly plan priced in dollars, with a monthly request quota.'
        }
        onClose={close}
      >
        <PlanForm
          plan={dialog?.kind === 'edit' ? dialog.plan : undefined}
          isSubmitting={createState.isLoading || editState.isLoading}
          onSubmit={(input) => void save(input)}
          onCancel={close}
        />
      </Modal>

      <Modal
        open={Boolean(featuresOf)}
        title={featuresOf ? `Features of ${featuresOf.name}` : 'Features'}
        description="Shown on the plan's card, in the order they were added."
        onClose={close}
      >
        {featuresOf && (
          <PlanFeatures
            plan={featuresOf}
            onAdd={add}
            onRemove={(feature) => void remove(feature)}
            isAdding={addState.isLoading}
            removingId={removingId}
            onClose={close}
          />
        )}
      </Modal>

      <ConfirmDialog
        open={dialog?.kind === 'delete'}
        title="Delete this plan?"
        message={
          dialog?.kind === 'delete'
            ? `${dialog.plan.name} will no longer be on sale. Subscriptions already sold keep running until they end, and their payments stay in the history.`
            : ''
        }
        confirmLabel="Delete"
        tone="danger"
        isLoading={deleteState.isLoading}
        onConfirm={() => {
          if (dialog?.kind === 'delete') void deletePlan(dialog.plan._id).then(done);
        }}
        onCancel={close}
      />
    </>
  );
}

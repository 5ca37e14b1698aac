import type { Plan, PlanInput } from '@afrofx/shared';
import type { FormEvent } from 'react';
import { Button } from '../../../components/Button';
import { Input } from '../../../components/Input';
import { useFormValues } from '../../../lib/use-form-values';
import { PLAN_NAME_MAX_LENGTH, validatePlanForm, type PlanFormValues } from '../plan-form-validation';

interface PlanFormProps {
  plan?: Plan;
  isSubmitting: boolean;
  onSubmit: (input: PlanInput) => void;
  onCancel: () => void;
}

/** Creates a plan, or edits `plan` when given. */
export function PlanForm({ plan, isSubmitting, onSubmit, onCancel }: PlanFormProps) {
  const { field, check } = useFormValues<PlanFormValues, PlanInput>(
    {
      name: plan?.name ?? '',
      amount: plan ? String(plan.amount) : '',
      numberOfRequest: plan ? String(plan.numberOfRequest) : '',
    },
    validatePlanForm,
  );

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const input = check();
    if (input) onSubmit(input);
  };

  return (
    <form noValidate onSubmit={submit} className="space-y-4">
      <Input
        label="Name"
        autoComplete="off"
        placeholder="Growth"
        maxLength={PLAN_NAME_MAX_LENGTH}
        {...field('name')}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <Input
          label="Amount (USD per year)"
          inputMode="decimal"
          autoComplete="off"
          placeholder="0.00"
          {...field('amount')}
        />
        <Input
          label="Requests per month"
          inputMode="numeric"
          autoComplete="off"
          placeholder="100000"
          {...field('numberOfRequest')}
        />
      </div>
      <div className="flex flex-col-reverse gap-3 pt-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" isLoading={isSubmitting}>
          {plan ? 'Save changes' : 'Create plan'}
        </Button>
      </div>
    </form>
  );
}

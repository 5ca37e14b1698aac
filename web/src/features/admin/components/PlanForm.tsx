import type { Plan, PlanInput } from '@afrofx/shared';
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/Button';
import { Input } from '../../../components/Input';
import {
  PLAN_NAME_MAX_LENGTH,
  validatePlanForm,
  type PlanFormErrors,
  type PlanFormValues,
} from '../plan-form-validation';

interface PlanFormProps {
  plan?: Plan;
  isSubmitting: boolean;
  onSubmit: (input: PlanInput) => void;
  onCancel: () => void;
}

/** Creates a plan, or edits `plan` when given. */
export function PlanForm({ plan, isSubmitting, onSubmit, onCancel }: PlanFormProps) {
  const [values, setValues] = useState<PlanFormValues>({
    name: plan?.name ?? '',
    amount: plan ? String(plan.amount) : '',
    numberOfRequest: plan ? String(plan.numberOfRequest) : '',
  });
  const [errors, setErrors] = useState<PlanFormErrors>({});

  const field = (name: keyof PlanFormValues) => ({
    name,
    value: values[name],
    error: errors[name],
    onChange: (event: { target: { value: string } }) =>
      setValues((current) => ({ ...current, [name]: event.target.value })),
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = validatePlanForm(values);
    setErrors(result.errors);
    if (result.input) onSubmit(result.input);
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

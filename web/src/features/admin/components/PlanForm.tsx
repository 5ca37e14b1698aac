import {
  ENDPOINTS,
  ENDPOINT_LABELS,
  MARKETS,
  MARKET_LABELS,
  type Plan,
  type PlanInput,
} from '@afrofx/shared';
import type { FormEvent } from 'react';
import { Button } from '../../../components/Button';
import { Checkbox } from '../../../components/Checkbox';
import { Fieldset } from '../../../components/Fieldset';
import { Input } from '../../../components/Input';
import { useFormValues } from '../../../lib/use-form-values';
import {
  entitlementValues,
  listOf,
  PLAN_NAME_MAX_LENGTH,
  validatePlanForm,
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
  const { field, check } = useFormValues<PlanFormValues, PlanInput>(
    {
      name: plan?.name ?? '',
      amount: plan ? String(plan.amount) : '',
      numberOfRequest: plan ? String(plan.numberOfRequest) : '',
      ...entitlementValues(plan?.entitlements),
    },
    validatePlanForm,
  );

  /** A group of boxes held as one comma-separated field. */
  const ticks = (name: 'endpoints' | 'markets') => {
    const { value, onChange, error } = field(name);
    const ticked = listOf(value);
    return {
      error,
      isTicked: (id: string) => ticked.includes(id),
      toggle: (id: string) =>
        onChange({
          target: {
            value: (ticked.includes(id) ? ticked.filter((t) => t !== id) : [...ticked, id]).join(','),
          },
        }),
    };
  };
  const endpoints = ticks('endpoints');
  const markets = ticks('markets');

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
      <p className="text-xs text-slate-500">
        An amount of 0 makes a free plan: developers activate it without a payment.
      </p>
      <Fieldset
        legend="Endpoints it opens"
        hint="The API refuses the others (403) and the plan card lists these."
        error={endpoints.error}
      >
        <div className="grid gap-x-4 sm:grid-cols-2">
          {ENDPOINTS.map((endpoint) => (
            <Checkbox
              key={endpoint}
              label={ENDPOINT_LABELS[endpoint]}
              checked={endpoints.isTicked(endpoint)}
              onChange={() => endpoints.toggle(endpoint)}
            />
          ))}
        </div>
      </Fieldset>
      <Fieldset legend="Markets it opens" error={markets.error}>
        <div className="flex flex-wrap gap-x-4">
          {MARKETS.map((market) => (
            <Checkbox
              key={market}
              label={MARKET_LABELS[market]}
              checked={markets.isTicked(market)}
              onChange={() => markets.toggle(market)}
            />
          ))}
        </div>
      </Fieldset>
      <div className="grid gap-4 sm:grid-cols-2">
        <Input
          label="History depth (days)"
          inputMode="numeric"
          autoComplete="off"
          {...field('historyDays')}
        />
        <Input
          label="Calls a second per key"
          inputMode="numeric"
          autoComplete="off"
          {...field('burstPerSecond')}
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

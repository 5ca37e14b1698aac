import { FeatureInput, formatNumber, PlanInput } from '@afrofx/shared';

export interface PlanFormValues {
  name: string;
  amount: string;
  numberOfRequest: string;
}

export type PlanFormErrors = Partial<Record<keyof PlanFormValues, string>>;

// The bounds of the PlanInput and FeatureInput contracts, so a field cannot hold what the server refuses.
export const PLAN_NAME_MAX_LENGTH = PlanInput.properties.name.maxLength!;
export const FEATURE_TITLE_MAX_LENGTH = FeatureInput.properties.title.maxLength!;
const MAX_AMOUNT = PlanInput.properties.amount.maximum!;
const MAX_REQUESTS = PlanInput.properties.numberOfRequest.maximum!;

function amountError(text: string): string | undefined {
  const trimmed = text.trim();
  if (!trimmed) return 'Amount is required.';
  if (!/^(\d+(\.\d{1,2})?|\.\d{1,2})$/.test(trimmed)) return 'Amount must be a dollar amount, like 49.99.';
  if (Number(trimmed) <= 0) return 'Amount must be greater than zero.';
  if (Number(trimmed) > MAX_AMOUNT) return `Amount must be at most ${formatNumber(MAX_AMOUNT, 0)} dollars.`;
  return undefined;
}

function requestsError(text: string): string | undefined {
  const trimmed = text.trim();
  if (!trimmed) return 'Number of requests is required.';
  if (!/^\d+$/.test(trimmed)) return 'Number of requests must be a whole number.';
  if (Number(trimmed) <= 0) return 'Number of requests must be greater than zero.';
  if (Number(trimmed) > MAX_REQUESTS)
    return `Number of requests must be at most ${formatNumber(MAX_REQUESTS, 0)}.`;
  return undefined;
}

/** SPEC §5: name, amount and numberOfRequest are required, and numberOfRequest is numeric. */
export function validatePlanForm(values: PlanFormValues): { errors: PlanFormErrors; input?: PlanInput } {
  const errors: PlanFormErrors = {
    name: values.name.trim() ? undefined : 'Name is required.',
    amount: amountError(values.amount),
    numberOfRequest: requestsError(values.numberOfRequest),
  };
  if (Object.values(errors).some(Boolean)) return { errors };
  return {
    errors: {},
    input: {
      name: values.name.trim(),
      amount: Number(values.amount.trim()),
      numberOfRequest: Number(values.numberOfRequest.trim()),
    },
  };
}

/** SPEC §5: a feature title is required. */
export function featureTitleError(title: string): string | undefined {
  return title.trim() ? undefined : 'Feature title is required.';
}

import {
  ALL_ENTITLEMENTS,
  ENDPOINTS,
  Entitlements,
  FeatureInput,
  formatNumber,
  MARKETS,
  PlanInput,
  type Endpoint,
  type Market,
} from '@afrofx/shared';

/** Text fields as the form holds them; endpoints and markets are comma-separated ids (ticked boxes). */
export interface PlanFormValues {
  name: string;
  amount: string;
  numberOfRequest: string;
  endpoints: string;
  historyDays: string;
  markets: string;
  burstPerSecond: string;
}

/** The form's values of a plan's entitlements (a new plan starts opening everything). */
export function entitlementValues(entitlements: Entitlements = ALL_ENTITLEMENTS) {
  return {
    endpoints: entitlements.endpoints.join(','),
    historyDays: String(entitlements.historyDays),
    markets: entitlements.markets.join(','),
    burstPerSecond: String(entitlements.burstPerSecond),
  };
}

export const listOf = (value: string) => value.split(',').filter(Boolean);

export type PlanFormErrors = Partial<Record<keyof PlanFormValues, string>>;

// The bounds of the PlanInput and FeatureInput contracts, so a field cannot hold what the server refuses.
export const PLAN_NAME_MAX_LENGTH = PlanInput.properties.name.maxLength!;
export const FEATURE_TITLE_MAX_LENGTH = FeatureInput.properties.title.maxLength!;
const MAX_AMOUNT = PlanInput.properties.amount.maximum!;
const MAX_REQUESTS = PlanInput.properties.numberOfRequest.maximum!;
const MAX_HISTORY_DAYS = Entitlements.properties.historyDays.maximum!;
const MAX_BURST = Entitlements.properties.burstPerSecond.maximum!;

function wholeNumberError(label: string, text: string, min: number, max: number): string | undefined {
  const trimmed = text.trim();
  if (!trimmed) return `${label} is required.`;
  if (!/^\d+$/.test(trimmed)) return `${label} must be a whole number.`;
  if (Number(trimmed) < min || Number(trimmed) > max)
    return `${label} must be from ${formatNumber(min, 0)} to ${formatNumber(max, 0)}.`;
  return undefined;
}

function amountError(text: string): string | undefined {
  const trimmed = text.trim();
  if (!trimmed) return 'Amount is required.';
  if (!/^(\d+(\.\d{1,2})?|\.\d{1,2})$/.test(trimmed)) return 'Amount must be a dollar amount, like 49.99.';
  if (Number(trimmed) < 0) return 'Amount must be zero (a free plan) or more.';
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

/**
 * SPEC §5: name, amount and numberOfRequest are required, and numberOfRequest is numeric. Issue 20: amount 0 is a
 * free plan, and the entitlements say what the API opens to it.
 */
export function validatePlanForm(values: PlanFormValues): { errors: PlanFormErrors; input?: PlanInput } {
  const endpoints = ENDPOINTS.filter((endpoint) => listOf(values.endpoints).includes(endpoint));
  const markets = MARKETS.filter((market) => listOf(values.markets).includes(market));
  const errors: PlanFormErrors = {
    name: values.name.trim() ? undefined : 'Name is required.',
    amount: amountError(values.amount),
    numberOfRequest: requestsError(values.numberOfRequest),
    endpoints: endpoints.length ? undefined : 'Tick at least one endpoint the plan opens.',
    historyDays: wholeNumberError('History depth', values.historyDays, 0, MAX_HISTORY_DAYS),
    markets: markets.length ? undefined : 'Tick at least one market the plan opens.',
    burstPerSecond: wholeNumberError('Calls a second', values.burstPerSecond, 1, MAX_BURST),
  };
  if (Object.values(errors).some(Boolean)) return { errors };
  return {
    errors: {},
    input: {
      name: values.name.trim(),
      amount: Number(values.amount.trim()),
      numberOfRequest: Number(values.numberOfRequest.trim()),
      entitlements: {
        endpoints: endpoints as Endpoint[],
        historyDays: Number(values.historyDays.trim()),
        markets: markets as Market[],
        burstPerSecond: Number(values.burstPerSecond.trim()),
      },
    },
  };
}

/** SPEC §5: a feature title is required. */
export function featureTitleError(title: string): string | undefined {
  return title.trim() ? undefined : 'Feature title is required.';
}

import {
  ALL_ENTITLEMENTS,
  ENDPOINTS,
  FeatureInput,
  formatNumber,
  MARKETS,
  PlanInput,
  type Entitlements,
} from '@afrofx/shared';
import { contractValidation, numberFrom, type FieldMessages } from '../../lib/contract-form';

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

/** A new plan starts with the latest rates only: the admin ticks what else it opens, nothing is sold by accident. */
const NEW_PLAN_ENTITLEMENTS: Entitlements = { ...ALL_ENTITLEMENTS, endpoints: ['latest'] };

/** The form's values of a plan's entitlements. */
export function entitlementValues(entitlements: Entitlements = NEW_PLAN_ENTITLEMENTS) {
  return {
    endpoints: entitlements.endpoints.join(','),
    historyDays: String(entitlements.historyDays),
    markets: entitlements.markets.join(','),
    burstPerSecond: String(entitlements.burstPerSecond),
  };
}

export const listOf = (value: string) => value.split(',').filter(Boolean);

// The bounds of the PlanInput and FeatureInput contracts, so a field cannot hold what the server refuses.
export const PLAN_NAME_MAX_LENGTH = PlanInput.properties.name.maxLength!;
export const FEATURE_TITLE_MAX_LENGTH = FeatureInput.properties.title.maxLength!;

/** Dollars and cents as typed (the server takes whole cents only). */
const DOLLARS = /^(\d+(\.\d{1,2})?|\.\d{1,2})$/;
const WHOLE = /^\d+$/;

const bounded = (label: string): FieldMessages => ({
  required: `${label} is required.`,
  invalid: `${label} must be a whole number.`,
  tooSmall: ({ minimum, maximum }) =>
    `${label} must be from ${formatNumber(minimum!, 0)} to ${formatNumber(maximum!, 0)}.`,
  tooLarge: ({ minimum, maximum }) =>
    `${label} must be from ${formatNumber(minimum!, 0)} to ${formatNumber(maximum!, 0)}.`,
});

/**
 * SPEC §5: name, amount and numberOfRequest are required, and numberOfRequest is numeric; PlanInput holds the
 * bounds. Amount 0 is a free plan, and the entitlements say what the API opens to it.
 */
export const validatePlanForm = contractValidation({
  schema: PlanInput,
  toInput: (values: PlanFormValues) => ({
    name: values.name.trim(),
    amount: numberFrom(values.amount, DOLLARS),
    numberOfRequest: numberFrom(values.numberOfRequest, WHOLE),
    entitlements: {
      endpoints: ENDPOINTS.filter((endpoint) => listOf(values.endpoints).includes(endpoint)),
      historyDays: numberFrom(values.historyDays, WHOLE),
      markets: MARKETS.filter((market) => listOf(values.markets).includes(market)),
      burstPerSecond: numberFrom(values.burstPerSecond, WHOLE),
    },
  }),
  messages: {
    name: {
      required: 'Name is required.',
      invalid: 'Name must be plain text, without control characters.',
      tooLarge: ({ maxLength }) => `Name must be at most ${maxLength} characters.`,
    },
    amount: {
      required: 'Amount is required.',
      invalid: 'Amount must be a dollar amount, like 49.99.',
      tooSmall: 'Amount must be zero (a free plan) or more.',
      tooLarge: ({ maximum }) => `Amount must be at most ${formatNumber(maximum!, 0)} dollars.`,
    },
    numberOfRequest: {
      required: 'Number of requests is required.',
      invalid: 'Number of requests must be a whole number.',
      tooSmall: 'Number of requests must be greater than zero.',
      tooLarge: ({ maximum }) => `Number of requests must be at most ${formatNumber(maximum!, 0)}.`,
    },
    endpoints: {
      required: 'Tick at least one endpoint the plan opens.',
      invalid: 'Tick at least one endpoint the plan opens.',
    },
    historyDays: bounded('History depth'),
    markets: {
      required: 'Tick at least one market the plan opens.',
      invalid: 'Tick at least one market the plan opens.',
    },
    burstPerSecond: bounded('Calls a second'),
  },
  // The contract lets a plan open no endpoint; the console asks for one, as a plan that opens none sells nothing.
  refine: (values) => ({
    endpoints: ENDPOINTS.some((endpoint) => listOf(values.endpoints).includes(endpoint))
      ? undefined
      : 'Tick at least one endpoint the plan opens.',
  }),
});

/** SPEC §5: a feature title is required. */
export function featureTitleError(title: string): string | undefined {
  return title.trim() ? undefined : 'Feature title is required.';
}

// The Webhooks screen's create form: its state, its checks, and the request body it makes.
import {
  ASSET_DISPLAY,
  BASE_DISPLAY,
  MARKET_LABELS,
  MAX_WEBHOOK_THRESHOLDS,
  type Asset,
  type Base,
  type CreateWebhookInput,
  type Market,
  type WebhookEvent,
  type WebhookPair,
  type WebhookThresholdInput,
} from '@afrofx/shared';

export interface ThresholdDraft {
  market: Market | '';
  base: Base | '';
  asset: Asset | '';
  side: 'buy' | 'sell' | '';
  level: string;
}

export interface WebhookFormState {
  url: string;
  events: WebhookEvent[];
  markets: Market[];
  pairs: WebhookPair[];
  thresholds: WebhookThresholdInput[];
}

export const emptyWebhookForm: WebhookFormState = {
  url: '',
  events: ['rate.updated'],
  markets: [],
  pairs: [],
  thresholds: [],
};

export const emptyThresholdDraft: ThresholdDraft = { market: '', base: '', asset: '', side: '', level: '' };

export type WebhookFormErrors = Partial<Record<'url' | 'events' | 'thresholds', string>>;

export function webhookFormErrors(state: WebhookFormState): WebhookFormErrors {
  const errors: WebhookFormErrors = {};
  const url = state.url.trim();
  if (!url) errors.url = 'Endpoint URL is required.';
  else if (!/^https?:\/\/[^\s/]+/i.test(url)) errors.url = 'Enter an http:// or https:// URL.';
  if (state.events.length === 0) errors.events = 'Choose at least one event.';
  if (state.events.includes('rate.threshold') && state.thresholds.length === 0)
    errors.thresholds = 'Add at least one threshold for rate.threshold.';
  return errors;
}

/** The threshold a draft row describes, or why it cannot be added. */
export function thresholdFromDraft(
  draft: ThresholdDraft,
  existing: ReadonlyArray<WebhookThresholdInput>,
): WebhookThresholdInput | string {
  const { market, base, asset, side } = draft;
  if (!market || !base || !asset || !side) return 'Choose the market, pair and side.';
  const level = Number(draft.level);
  if (draft.level.trim() === '' || !Number.isFinite(level) || level <= 0)
    return 'The level must be a number above 0.';
  if (existing.length >= MAX_WEBHOOK_THRESHOLDS) return `At most ${MAX_WEBHOOK_THRESHOLDS} thresholds.`;
  const threshold = { market, base, asset, side, level };
  if (existing.some((t) => thresholdLabel(t) === thresholdLabel(threshold)))
    return 'That threshold is there already.';
  return threshold;
}

/** The body of POST account/webhooks/{appId}: filters and thresholds only for the events that use them. */
export function webhookInput(state: WebhookFormState): CreateWebhookInput {
  const updated = state.events.includes('rate.updated');
  const threshold = state.events.includes('rate.threshold');
  return {
    url: state.url.trim(),
    events: state.events,
    ...(updated && state.markets.length > 0 ? { markets: state.markets } : {}),
    ...(updated && state.pairs.length > 0 ? { pairs: state.pairs } : {}),
    ...(threshold ? { thresholds: state.thresholds } : {}),
  };
}

export const pairLabel = (pair: WebhookPair) =>
  `${ASSET_DISPLAY[pair.asset].code}/${BASE_DISPLAY[pair.base].code}`;

export const thresholdLabel = (t: Omit<WebhookThresholdInput, 'level'> & { level: number }) =>
  `${pairLabel(t)} ${MARKET_LABELS[t.market]} ${t.side} ${t.level}`;

import {
  ASSETS,
  ASSET_DISPLAY,
  BASES,
  BASE_DISPLAY,
  MARKET_LABELS,
  MARKET_TABS,
  WEBHOOK_EVENTS,
  type Asset,
  type Base,
  type Market,
  type WebhookEvent,
} from '@afrofx/shared';
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/Button';
import { Checkbox } from '../../../components/Checkbox';
import { Chip } from '../../../components/Chip';
import { Fieldset } from '../../../components/Fieldset';
import { Input } from '../../../components/Input';
import { Select } from '../../../components/Select';
import {
  emptyThresholdDraft,
  emptyWebhookForm,
  pairLabel,
  thresholdFromDraft,
  thresholdLabel,
  webhookFormErrors,
  webhookInput,
  type ThresholdDraft,
  type WebhookFormErrors,
  type WebhookFormState,
} from '../webhook-form';
import type { CreateWebhookInput } from '@afrofx/shared';

const EVENT_HINTS: Record<WebhookEvent, string> = {
  'rate.updated': 'A new rate of the pairs and markets below',
  'rate.threshold': 'A price crosses a level, up or down (once per crossing)',
  'rate.corrected': 'A published rate of the pairs and markets below is corrected',
};

// SPEC §2 tab order: Bank, Cash, Transfer.
const MARKETS_IN_TAB_ORDER = MARKET_TABS.map((tab) => tab.market);
const marketOptions = MARKETS_IN_TAB_ORDER.map((m) => ({ name: MARKET_LABELS[m], value: m }));
const baseOptions = BASES.map((b) => ({
  name: `${BASE_DISPLAY[b].code} · ${BASE_DISPLAY[b].name}`,
  value: b,
}));
const assetOptions = ASSETS.map((a) => ({ name: ASSET_DISPLAY[a].code, value: a }));
const sideOptions = [
  { name: 'Buy', value: 'buy' },
  { name: 'Sell', value: 'sell' },
];

function toggle<T>(list: ReadonlyArray<T>, item: T): T[] {
  return list.includes(item) ? list.filter((x) => x !== item) : [...list, item];
}

interface WebhookFormProps {
  isSaving: boolean;
  onSubmit: (input: CreateWebhookInput) => Promise<boolean>;
  onCancel: () => void;
}

/** Registers an endpoint: URL, events, and the pairs, markets and thresholds they watch. */
export function WebhookForm({ isSaving, onSubmit, onCancel }: WebhookFormProps) {
  const [state, setState] = useState<WebhookFormState>(emptyWebhookForm);
  const [errors, setErrors] = useState<WebhookFormErrors>({});
  const [pair, setPair] = useState<{ base: Base | ''; asset: Asset | '' }>({ base: '', asset: '' });
  const [pairError, setPairError] = useState<string>();
  const [draft, setDraft] = useState<ThresholdDraft>(emptyThresholdDraft);
  const [draftError, setDraftError] = useState<string>();
  const watchesUpdates = state.events.includes('rate.updated');
  const watchesThresholds = state.events.includes('rate.threshold');

  const update = (patch: Partial<WebhookFormState>) => setState((s) => ({ ...s, ...patch }));

  const addPair = () => {
    if (!pair.base || !pair.asset) return setPairError('Choose a base currency and an asset.');
    const chosen = { base: pair.base, asset: pair.asset };
    if (state.pairs.some((p) => p.base === chosen.base && p.asset === chosen.asset))
      return setPairError('That pair is there already.');
    setPairError(undefined);
    update({ pairs: [...state.pairs, chosen] });
    setPair({ base: '', asset: '' });
  };

  const addThreshold = () => {
    const result = thresholdFromDraft(draft, state.thresholds);
    if (typeof result === 'string') return setDraftError(result);
    setDraftError(undefined);
    setErrors((e) => ({ ...e, thresholds: undefined }));
    update({ thresholds: [...state.thresholds, result] });
    setDraft(emptyThresholdDraft);
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = webhookFormErrors(state);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    if (await onSubmit(webhookInput(state))) setState(emptyWebhookForm);
  };

  return (
    <form noValidate onSubmit={submit} className="space-y-6">
      <Input
        label="Endpoint URL"
        name="url"
        type="url"
        inputMode="url"
        placeholder="https://example.com/afrofx/webhooks"
        maxLength={2048}
        value={state.url}
        onChange={(e) => {
          update({ url: e.target.value });
          setErrors((found) => ({ ...found, url: undefined }));
        }}
        error={errors.url}
      />

      <Fieldset legend="Events" error={errors.events}>
        {WEBHOOK_EVENTS.map((name) => (
          <Checkbox
            key={name}
            label={<code className="font-mono">{name}</code>}
            hint={EVENT_HINTS[name]}
            checked={state.events.includes(name)}
            onChange={() => {
              update({ events: toggle(state.events, name) });
              setErrors((found) => ({ ...found, events: undefined }));
            }}
          />
        ))}
      </Fieldset>

      {watchesUpdates && (
        <>
          <Fieldset legend="Markets" hint="For rate.updated. None ticked: every market.">
            <div className="flex flex-wrap gap-x-5">
              {MARKETS_IN_TAB_ORDER.map((m) => (
                <Checkbox
                  key={m}
                  label={MARKET_LABELS[m]}
                  checked={state.markets.includes(m)}
                  onChange={() => update({ markets: toggle<Market>(state.markets, m) })}
                />
              ))}
            </div>
          </Fieldset>

          <Fieldset legend="Pairs" hint="For rate.updated. None added: every pair." error={pairError}>
            {state.pairs.length > 0 && (
              <ul className="mb-3 flex flex-wrap gap-2" aria-label="Chosen pairs">
                {state.pairs.map((p) => (
                  <Chip
                    key={`${p.base}-${p.asset}`}
                    label={pairLabel(p)}
                    onRemove={() => update({ pairs: state.pairs.filter((x) => x !== p) })}
                  />
                ))}
              </ul>
            )}
            <div className="grid grid-cols-1 gap-2 sm:grid-cols-[1fr_1fr_auto]">
              <Select
                label="Asset"
                options={assetOptions}
                required={false}
                value={pair.asset}
                onChange={(e) => setPair((p) => ({ ...p, asset: e.target.value as Asset }))}
              />
              <Select
                label="Base currency"
                options={baseOptions}
                required={false}
                value={pair.base}
                onChange={(e) => setPair((p) => ({ ...p, base: e.target.value as Base }))}
              />
              <Button type="button" variant="secondary" className="h-11 self-end" onClick={addPair}>
                Add pair
              </Button>
            </div>
          </Fieldset>
        </>
      )}

      {watchesThresholds && (
        <Fieldset
          legend="Thresholds"
          hint="For rate.threshold: each fires when the price moves to the other side of its level."
          error={draftError ?? errors.thresholds}
        >
          {state.thresholds.length > 0 && (
            <ul className="mb-3 flex flex-wrap gap-2" aria-label="Chosen thresholds">
              {state.thresholds.map((t) => (
                <Chip
                  key={thresholdLabel(t)}
                  label={thresholdLabel(t)}
                  onRemove={() => update({ thresholds: state.thresholds.filter((x) => x !== t) })}
                />
              ))}
            </ul>
          )}
          <div className="grid grid-cols-2 gap-2">
            <Select
              label="Market"
              options={marketOptions}
              required={false}
              value={draft.market}
              onChange={(e) => setDraft((d) => ({ ...d, market: e.target.value as Market }))}
            />
            <Select
              label="Asset"
              options={assetOptions}
              required={false}
              value={draft.asset}
              onChange={(e) => setDraft((d) => ({ ...d, asset: e.target.value as Asset }))}
            />
            <Select
              label="Base currency"
              options={baseOptions}
              required={false}
              value={draft.base}
              onChange={(e) => setDraft((d) => ({ ...d, base: e.target.value as Base }))}
            />
            <Select
              label="Side"
              options={sideOptions}
              required={false}
              value={draft.side}
              onChange={(e) => setDraft((d) => ({ ...d, side: e.target.value as 'buy' | 'sell' }))}
            />
            <Input
              label="Level"
              placeholder="e.g. 1600"
              inputMode="decimal"
              required={false}
              value={draft.level}
              onChange={(e) => setDraft((d) => ({ ...d, level: e.target.value }))}
              onKeyDown={(e) => {
                if (e.key === 'Enter') {
                  e.preventDefault();
                  addThreshold();
                }
              }}
            />
            <Button type="button" variant="secondary" className="h-11 self-end" onClick={addThreshold}>
              Add threshold
            </Button>
          </div>
        </Fieldset>
      )}

      <div className="flex flex-col-reverse gap-3 border-t border-slate-100 pt-5 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" isLoading={isSaving}>
          Create endpoint
        </Button>
      </div>
    </form>
  );
}

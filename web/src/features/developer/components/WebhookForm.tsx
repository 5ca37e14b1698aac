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
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { Button } from '../../../components/Button';
import { errorClasses, labelClasses } from '../../../components/field';
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

function Fieldset({
  legend,
  hint,
  error,
  children,
}: {
  legend: string;
  hint?: string;
  error?: string;
  children: ReactNode;
}) {
  const errorId = useId();
  return (
    <fieldset aria-describedby={error ? errorId : undefined} className="min-w-0">
      <legend className={labelClasses}>{legend}</legend>
      {hint && <p className="-mt-1 mb-2 text-xs text-slate-500">{hint}</p>}
      {children}
      {error && (
        <p id={errorId} className={errorClasses} role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}

function Checkbox({
  label,
  hint,
  checked,
  onChange,
}: {
  label: ReactNode;
  hint?: string;
  checked: boolean;
  onChange: () => void;
}) {
  return (
    <label className="flex cursor-pointer items-start gap-2.5 rounded-lg px-1 py-1.5 text-sm text-slate-800">
      <input
        type="checkbox"
        checked={checked}
        onChange={onChange}
        className="mt-0.5 size-4 shrink-0 rounded border-slate-300 accent-brand-700 focus-visible:outline-2 focus-visible:outline-brand-600"
      />
      <span>
        <span className="font-medium">{label}</span>
        {hint && <span className="block text-xs text-slate-500">{hint}</span>}
      </span>
    </label>
  );
}

function Chip({ label, onRemove }: { label: string; onRemove: () => void }) {
  return (
    <li className="inline-flex items-center gap-1 rounded-full bg-slate-100 py-0.5 pr-1 pl-3 text-xs font-semibold text-slate-700 ring-1 ring-slate-200 ring-inset">
      {label}
      <button
        type="button"
        onClick={onRemove}
        aria-label={`Remove ${label}`}
        className="flex size-6 items-center justify-center rounded-full text-slate-500 hover:bg-slate-200 hover:text-slate-800"
      >
        ×
      </button>
    </li>
  );
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

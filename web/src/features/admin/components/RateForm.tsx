import {
  ASSET_DISPLAY,
  ASSETS,
  BASE_DISPLAY,
  BASES,
  MARKET_LABELS,
  MARKETS,
  type Rate,
  type RateInput,
} from '@afrofx/shared';
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/Button';
import { Input } from '../../../components/Input';
import { Notice } from '../../../components/Notice';
import { Select } from '../../../components/Select';
import { useFormValues } from '../../../lib/use-form-values';
import { rateEntryWarnings, validateRateForm, type RateFormValues } from '../rate-form-validation';

const marketOptions = MARKETS.map((market) => ({ value: market, name: MARKET_LABELS[market] }));
const assetOptions = ASSETS.map((asset) => ({
  value: asset,
  name: `${ASSET_DISPLAY[asset].flag} ${ASSET_DISPLAY[asset].code}`,
}));
const baseOptions = BASES.map((base) => ({
  value: base,
  name: `${BASE_DISPLAY[base].code} — ${BASE_DISPLAY[base].name}`,
}));

interface RateFormProps {
  rate?: Rate;
  /** The latest rate of each market, asset and base: a new price far from its latest is asked about first. */
  latestRates: readonly Rate[];
  isSubmitting: boolean;
  onSubmit: (input: RateInput) => void;
  onCancel: () => void;
}

/** Adds a rate, or edits `rate` when given. Sell comes before Buy, as in the Rates table. */
export function RateForm({ rate, latestRates, isSubmitting, onSubmit, onCancel }: RateFormProps) {
  const { values, field, check } = useFormValues<RateFormValues, RateInput>(
    {
      market: rate?.market ?? '',
      asset: rate?.asset ?? '',
      base: rate?.base ?? '',
      buy: rate ? String(rate.buy) : '',
      sell: rate ? String(rate.sell) : '',
    },
    validateRateForm,
  );
  // The rate waiting for the admin to confirm it despite the warnings shown.
  const [pending, setPending] = useState<{ input: RateInput; warnings: string[] }>();
  const sellBelowBuy =
    values.sell.trim() !== '' && values.buy.trim() !== '' && Number(values.sell) < Number(values.buy);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const input = check();
    if (!input) return;
    const warnings = rateEntryWarnings(input, latestRates);
    if (warnings.length > 0) setPending({ input, warnings });
    else onSubmit(input);
  };

  const edited = (name: keyof RateFormValues) => {
    const wired = field(name);
    return {
      ...wired,
      onChange: (event: { target: { value: string } }) => {
        setPending(undefined);
        wired.onChange(event);
      },
    };
  };

  return (
    <form noValidate onSubmit={submit} className="space-y-4">
      <Select label="Market" options={marketOptions} required {...edited('market')} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Select label="Asset" options={assetOptions} required {...edited('asset')} />
        <Select label="Base" options={baseOptions} required {...edited('base')} />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <Input label="Sell" inputMode="decimal" autoComplete="off" placeholder="0.00" {...edited('sell')} />
        <Input label="Buy" inputMode="decimal" autoComplete="off" placeholder="0.00" {...edited('buy')} />
      </div>
      {sellBelowBuy && !pending && (
        <p className="text-sm text-amber-800">Sell is below Buy: sell is normally the higher price.</p>
      )}
      {pending ? (
        <Notice tone="warning" role="alert" title="Check this rate before saving">
          <ul className="list-disc space-y-1 pl-5">
            {pending.warnings.map((warning) => (
              <li key={warning}>{warning}</li>
            ))}
          </ul>
          <div className="mt-3 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            {/* The safe choice is the primary one: a fat finger must not be one Enter away from saving. */}
            <Button variant="secondary" isLoading={isSubmitting} onClick={() => onSubmit(pending.input)}>
              Save anyway
            </Button>
            <Button onClick={() => setPending(undefined)}>Check again</Button>
          </div>
        </Notice>
      ) : (
        <div className="flex flex-col-reverse gap-3 pt-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" isLoading={isSubmitting}>
            {rate ? 'Save changes' : 'Add rate'}
          </Button>
        </div>
      )}
    </form>
  );
}

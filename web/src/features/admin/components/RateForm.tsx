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
import { Select } from '../../../components/Select';
import { validateRateForm, type RateFormErrors, type RateFormValues } from '../rate-form-validation';

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
  isSubmitting: boolean;
  onSubmit: (input: RateInput) => void;
  onCancel: () => void;
}

/** Adds a rate, or edits `rate` when given. */
export function RateForm({ rate, isSubmitting, onSubmit, onCancel }: RateFormProps) {
  const [values, setValues] = useState<RateFormValues>({
    market: rate?.market ?? '',
    asset: rate?.asset ?? '',
    base: rate?.base ?? '',
    buy: rate ? String(rate.buy) : '',
    sell: rate ? String(rate.sell) : '',
  });
  const [errors, setErrors] = useState<RateFormErrors>({});

  const field = (name: keyof RateFormValues) => ({
    name,
    value: values[name],
    error: errors[name],
    onChange: (event: { target: { value: string } }) =>
      setValues((current) => ({ ...current, [name]: event.target.value })),
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = validateRateForm(values);
    setErrors(result.errors);
    if (result.input) onSubmit(result.input);
  };

  return (
    <form noValidate onSubmit={submit} className="space-y-4">
      <Select label="Market" options={marketOptions} required {...field('market')} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Select label="Asset" options={assetOptions} required {...field('asset')} />
        <Select label="Base" options={baseOptions} required {...field('base')} />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <Input label="Buy" inputMode="decimal" autoComplete="off" placeholder="0.00" {...field('buy')} />
        <Input label="Sell" inputMode="decimal" autoComplete="off" placeholder="0.00" {...field('sell')} />
      </div>
      <div className="flex flex-col-reverse gap-3 pt-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" isLoading={isSubmitting}>
          {rate ? 'Save changes' : 'Add rate'}
        </Button>
      </div>
    </form>
  );
}

import {
  ALERT_CONDITIONS,
  ASSET_DISPLAY,
  ASSETS,
  BASE_DISPLAY,
  BASES,
  DEFAULT_MARKET,
  MARKET_TABS,
  type AlertCondition,
  type AlertSide,
  type Asset,
  type Base,
  type Market,
} from '@afrofx/shared';
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/Button';
import { Input } from '../../../components/Input';
import { Select } from '../../../components/Select';
import { showToast } from '../../../lib/toast';
import { emailError } from '../../../lib/validation';
import { useCreateAlertMutation } from '../alerts-api';
import { parseAmount } from '../conversion';

const CONDITION_LABELS: Record<AlertCondition, string> = {
  above: 'rises above',
  below: 'falls below',
  move: 'moves by more than (%)',
};

/** A rate alert by e-mail: live once the visitor opens the link of the confirmation mail. */
export function AlertForm({
  asset: initialAsset = 'dollar',
  base: initialBase = 'naira',
}: {
  asset?: Asset;
  base?: Base;
}) {
  const [create, { isLoading }] = useCreateAlertMutation();
  const [email, setEmail] = useState('');
  const [asset, setAsset] = useState<Asset>(initialAsset);
  const [base, setBase] = useState<Base>(initialBase);
  const [market, setMarket] = useState<Market>(DEFAULT_MARKET);
  const [side, setSide] = useState<AlertSide>('sell');
  const [condition, setCondition] = useState<AlertCondition>('above');
  const [levelText, setLevelText] = useState('');
  const [errors, setErrors] = useState<{ email?: string; level?: string }>({});

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const level = parseAmount(levelText);
    const problems = {
      email: emailError(email),
      level: level === undefined || level <= 0 ? 'Enter a number above 0, like 1600.' : undefined,
    };
    setErrors(problems);
    if (problems.email || problems.level) return;
    const result = await create({ email: email.trim(), asset, base, market, side, condition, level: level! });
    if (result.data) {
      showToast(result.data.message, 'success');
      setLevelText('');
    }
  };

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-3 sm:grid-cols-2" aria-label="Rate alert">
      <Select
        label="Currency"
        options={ASSETS.map((a) => ({ value: a, name: ASSET_DISPLAY[a].code }))}
        value={asset}
        onChange={(e) => setAsset(e.target.value as Asset)}
      />
      <Select
        label="Base"
        options={BASES.map((b) => ({ value: b, name: BASE_DISPLAY[b].code }))}
        value={base}
        onChange={(e) => setBase(e.target.value as Base)}
      />
      <Select
        label="Market"
        options={MARKET_TABS.map((tab) => ({ value: tab.market, name: tab.label }))}
        value={market}
        onChange={(e) => setMarket(e.target.value as Market)}
      />
      <Select
        label="Side"
        options={[
          { value: 'sell', name: 'Sell rate' },
          { value: 'buy', name: 'Buy rate' },
        ]}
        value={side}
        onChange={(e) => setSide(e.target.value as AlertSide)}
      />
      <Select
        label="When the rate"
        options={ALERT_CONDITIONS.map((c) => ({ value: c, name: CONDITION_LABELS[c] }))}
        value={condition}
        onChange={(e) => setCondition(e.target.value as AlertCondition)}
      />
      <Input
        label={condition === 'move' ? 'Percentage' : `Threshold (${BASE_DISPLAY[base].code})`}
        inputMode="decimal"
        autoComplete="off"
        value={levelText}
        onChange={(e) => setLevelText(e.target.value)}
        error={errors.level}
      />
      <Input
        label="Alert e-mail address"
        type="email"
        name="email"
        autoComplete="email"
        placeholder="you@example.com"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        error={errors.email}
        containerClassName="sm:col-span-2"
      />
      <div className="sm:col-span-2">
        <Button type="submit" variant="primary" size="lg" isLoading={isLoading}>
          Create alert
        </Button>
      </div>
    </form>
  );
}

import { BASE_DISPLAY, BASES, DEFAULT_MARKET, MARKET_TABS, type Base, type Market } from '@afrofx/shared';
import { useState, type ReactNode } from 'react';
import { SegmentedControl } from '../../../components/SegmentedControl';
import { Tabs } from '../../../components/Tabs';

interface RatesSelection {
  market: Market;
  base: Base;
}

const marketTabs = MARKET_TABS.map((tab) => ({ value: tab.market, label: tab.label }));
const currencyOptions = BASES.map((base) => ({
  value: base,
  label: BASE_DISPLAY[base].code,
  title: BASE_DISPLAY[base].name,
}));

/** SPEC §2: market tabs (Cash by default) and the currency selector; the rates for the choice come from `children`. */
export function RatesBoard({
  initialBase = 'naira',
  onBaseChange,
  children,
}: {
  /** A pair page opens on its own base currency. */
  initialBase?: Base;
  /** A pair page moves to the chosen base's page instead of showing another pair under its own heading. */
  onBaseChange?: (base: Base) => void;
  children: (selection: RatesSelection) => ReactNode;
}) {
  const [market, setMarket] = useState<Market>(DEFAULT_MARKET);
  const [base, setBase] = useState<Base>(initialBase);
  const chooseBase = (chosen: Base) => (onBaseChange ? onBaseChange(chosen) : setBase(chosen));

  return (
    <Tabs
      label="Market"
      tabs={marketTabs}
      value={market}
      onChange={setMarket}
      aside={
        <SegmentedControl legend="Currency" options={currencyOptions} value={base} onChange={chooseBase} />
      }
    >
      {children({ market, base })}
    </Tabs>
  );
}

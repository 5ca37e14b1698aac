import { useId, type KeyboardEvent, type ReactNode } from 'react';
import { cn } from '../lib/cn';

interface TabItem<V extends string> {
  value: V;
  label: string;
}

interface TabsProps<V extends string> {
  label: string;
  tabs: ReadonlyArray<TabItem<V>>;
  value: V;
  onChange: (value: V) => void;
  children: ReactNode;
  /** Content placed beside the tab list, e.g. a filter. */
  aside?: ReactNode;
}

/** WAI-ARIA tabs: arrow keys, Home and End move between tabs. */
export function Tabs<V extends string>({ label, tabs, value, onChange, children, aside }: TabsProps<V>) {
  const baseId = useId();
  const tabId = (tab: V) => `${baseId}-tab-${tab}`;
  const panelId = `${baseId}-panel`;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = tabs.findIndex((tab) => tab.value === value);
    const moves: Record<string, number> = {
      ArrowRight: (index + 1) % tabs.length,
      ArrowLeft: (index - 1 + tabs.length) % tabs.length,
      Home: 0,
      End: tabs.length - 1,
    };
    const target = tabs[moves[event.key] ?? -1];
    if (!target) return;
    event.preventDefault();
    onChange(target.value);
    document.getElementById(tabId(target.value))?.focus();
  };

  return (
    <div>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div
          role="tablist"
          aria-label={label}
          onKeyDown={onKeyDown}
          className="inline-flex w-full rounded-xl bg-slate-100 p-1 sm:w-auto"
        >
          {tabs.map((tab) => {
            const selected = tab.value === value;
            return (
              <button
                key={tab.value}
                id={tabId(tab.value)}
                type="button"
                role="tab"
                aria-selected={selected}
                aria-controls={panelId}
                tabIndex={selected ? 0 : -1}
                onClick={() => onChange(tab.value)}
                className={cn(
                  'flex-1 rounded-lg px-2 py-2 text-sm font-semibold whitespace-nowrap transition-colors sm:flex-none sm:px-5',
                  selected ? 'bg-white text-brand-800 shadow-sm' : 'text-slate-600 hover:text-slate-900',
                )}
              >
                {tab.label}
              </button>
            );
          })}
        </div>
        {aside}
      </div>
      <div id={panelId} role="tabpanel" aria-labelledby={tabId(value)} className="mt-4">
        {children}
      </div>
    </div>
  );
}

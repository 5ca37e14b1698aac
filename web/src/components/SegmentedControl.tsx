import { useId } from 'react';
import { cn } from '../lib/cn';
import { labelClasses } from './field';

interface SegmentedControlProps<V extends string> {
  legend: string;
  showLegend?: boolean;
  options: ReadonlyArray<{ value: V; label: string; title?: string }>;
  value: V;
  onChange: (value: V) => void;
}

/** A radio group drawn as a row of buttons; the arrow keys move the choice as in any radio group. */
export function SegmentedControl<V extends string>({
  legend,
  showLegend = false,
  options,
  value,
  onChange,
}: SegmentedControlProps<V>) {
  const name = useId();
  return (
    <fieldset>
      <legend className={showLegend ? labelClasses : 'sr-only'}>{legend}</legend>
      <div className="inline-flex w-full rounded-xl bg-slate-100 p-1 sm:w-auto">
        {options.map((option) => (
          <label
            key={option.value}
            title={option.title}
            className={cn(
              'relative flex-1 cursor-pointer rounded-lg px-3 py-2 text-center text-sm font-semibold transition-colors has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-gold-500 sm:flex-none',
              option.value === value
                ? 'bg-brand-800 text-white shadow-sm'
                : 'text-slate-600 hover:text-slate-900',
            )}
          >
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={option.value === value}
              onChange={() => onChange(option.value)}
              className="sr-only"
            />
            {option.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

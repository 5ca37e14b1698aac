import { useId, type SelectHTMLAttributes } from 'react';
import { cn } from '../lib/cn';
import { useValueTypedBeforeHydration } from '../lib/use-value-typed-before-hydration';
import { errorClasses, fieldClasses, labelClasses } from './field';

type SelectOption = string | { name: string; value: string };

interface SelectProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'children'> {
  options: ReadonlyArray<SelectOption>;
  label?: string;
  error?: string;
}

const normalise = (option: SelectOption) =>
  typeof option === 'string' ? { name: option, value: option } : option;

/** SPEC §5: a disabled placeholder option (the label, or 'Select'); options are strings or name/value pairs. */
export function Select({ options, label, error, className, id, value, defaultValue, ...rest }: SelectProps) {
  const generatedId = useId();
  const selectId = id ?? generatedId;
  const errorId = `${selectId}-error`;
  const fieldRef = useValueTypedBeforeHydration<HTMLSelectElement>(value, rest.onChange);
  const uncontrolledDefault = value === undefined ? (defaultValue ?? '') : undefined;

  return (
    <div>
      {label && (
        <label htmlFor={selectId} className={labelClasses}>
          {label}
        </label>
      )}
      <div className="relative">
        <select
          ref={fieldRef}
          id={selectId}
          value={value}
          defaultValue={uncontrolledDefault}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          className={cn(fieldClasses, 'h-11 appearance-none pr-10', className)}
          {...rest}
        >
          <option value="" disabled>
            {label ?? 'Select'}
          </option>
          {options.map(normalise).map((option) => (
            <option key={option.value} value={option.value}>
              {option.name}
            </option>
          ))}
        </select>
        <svg
          className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-slate-500"
          viewBox="0 0 20 20"
          fill="currentColor"
          aria-hidden="true"
        >
          <path
            fillRule="evenodd"
            d="M5.23 7.21a.75.75 0 0 1 1.06.02L10 11.17l3.71-3.94a.75.75 0 1 1 1.08 1.04l-4.25 4.5a.75.75 0 0 1-1.08 0l-4.25-4.5a.75.75 0 0 1 .02-1.06Z"
          />
        </svg>
      </div>
      {error && (
        <p id={errorId} className={errorClasses}>
          {error}
        </p>
      )}
    </div>
  );
}

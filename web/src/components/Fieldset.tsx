import { useId, type ReactNode } from 'react';
import { errorClasses, labelClasses } from './field';

/** A group of fields under one legend, with an optional hint and the group's error, announced when it appears. */
export function Fieldset({
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

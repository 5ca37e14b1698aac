import { useId, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import { cn } from '../lib/cn';
import { useValueTypedBeforeHydration } from '../lib/use-value-typed-before-hydration';
import { errorClasses, fieldClasses, labelClasses } from './field';

/** SPEC §5: the maximum length when none is given (the HTML default). */
const DEFAULT_MAX_LENGTH = 524288;

interface InputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'size'> {
  label: ReactNode;
  error?: string;
  hideLabel?: boolean;
  containerClassName?: string;
}

/** SPEC §5: text inputs are required by default and password inputs have a show/hide toggle. */
export function Input({
  label,
  error,
  hideLabel = false,
  containerClassName,
  className,
  id,
  type = 'text',
  required = true,
  maxLength = DEFAULT_MAX_LENGTH,
  ...rest
}: InputProps) {
  const fieldRef = useValueTypedBeforeHydration<HTMLInputElement>(rest.value, rest.onChange);
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const errorId = `${inputId}-error`;
  const [revealed, setRevealed] = useState(false);
  const isPassword = type === 'password';

  return (
    <div className={containerClassName}>
      <label htmlFor={inputId} className={hideLabel ? 'sr-only' : labelClasses}>
        {label}
      </label>
      <div className="relative">
        <input
          ref={fieldRef}
          id={inputId}
          type={isPassword && revealed ? 'text' : type}
          required={required}
          maxLength={maxLength}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          className={cn(fieldClasses, 'h-11', isPassword && 'pr-20', className)}
          {...rest}
        />
        {isPassword && (
          <button
            type="button"
            onClick={() => setRevealed((value) => !value)}
            aria-pressed={revealed}
            aria-controls={inputId}
            className="absolute inset-y-1.5 right-1.5 rounded-md px-2.5 text-xs font-semibold text-brand-700 hover:bg-brand-50"
          >
            {revealed ? 'Hide' : 'Show'}
            <span className="sr-only"> password</span>
          </button>
        )}
      </div>
      {error && (
        <p id={errorId} className={errorClasses}>
          {error}
        </p>
      )}
    </div>
  );
}

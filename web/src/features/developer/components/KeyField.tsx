import { useId, type ReactNode } from 'react';
import { Button } from '../../../components/Button';
import { cn } from '../../../lib/cn';

interface KeyFieldProps {
  label: string;
  value: string;
  hint?: ReactNode;
  /** Shown when the value can be copied. */
  onCopy?: () => void;
  emphasis?: boolean;
}

/** A key shown whole, in monospace, with a copy button when copying makes sense. */
export function KeyField({ label, value, hint, onCopy, emphasis = false }: KeyFieldProps) {
  const id = useId();
  return (
    <div>
      <p id={id} className="mb-1.5 text-sm font-medium text-slate-700">
        {label}
      </p>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-stretch">
        <code
          aria-labelledby={id}
          data-testid={`key-${label.toLowerCase().replace(/\W+/g, '-')}`}
          className={cn(
            'flex min-h-11 flex-1 items-center rounded-lg px-3 py-2 font-mono text-sm break-all',
            emphasis
              ? 'bg-white text-slate-900 ring-2 ring-gold-400'
              : 'bg-slate-50 text-slate-800 ring-1 ring-slate-200',
          )}
        >
          {value}
        </code>
        {onCopy && (
          <Button
            variant={emphasis ? 'primary' : 'secondary'}
            className="h-11"
            onClick={onCopy}
            aria-label={`Copy ${label.toLowerCase()}`}
          >
            <svg className="size-4" viewBox="0 0 20 20" fill="currentColor" aria-hidden="true">
              <path d="M7 3.5A1.5 1.5 0 0 1 8.5 2h3.88a1.5 1.5 0 0 1 1.06.44l3.12 3.12A1.5 1.5 0 0 1 17 6.62V12.5a1.5 1.5 0 0 1-1.5 1.5h-1v-3.38a3 3 0 0 0-.88-2.12L10.5 5.38A3 3 0 0 0 8.38 4.5H7v-1Z" />
              <path d="M4.5 6A1.5 1.5 0 0 0 3 7.5v9A1.5 1.5 0 0 0 4.5 18h7a1.5 1.5 0 0 0 1.5-1.5v-5.88a1.5 1.5 0 0 0-.44-1.06L9.44 6.44A1.5 1.5 0 0 0 8.38 6H4.5Z" />
            </svg>
            Copy
          </Button>
        )}
      </div>
      {hint && <p className="mt-1.5 text-xs text-slate-500">{hint}</p>}
    </div>
  );
}

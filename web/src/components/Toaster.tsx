import { dismissToast, useToasts } from '../lib/toast';
import { cn } from '../lib/cn';

export function Toaster() {
  const toasts = useToasts();
  return (
    <div
      aria-live="polite"
      className="pointer-events-none fixed inset-x-0 bottom-0 z-[60] flex flex-col items-center gap-2 p-4 sm:top-0 sm:bottom-auto sm:items-end"
    >
      {toasts.map((toast) => (
        <div
          key={toast.id}
          role="status"
          data-tone={toast.tone}
          className={cn(
            'pointer-events-auto flex w-full max-w-sm items-start gap-3 rounded-xl bg-white p-4 text-sm shadow-lg ring-1',
            toast.tone === 'success' ? 'ring-brand-600/25' : 'ring-red-600/25',
          )}
        >
          <span
            className={cn(
              'mt-0.5 flex size-5 shrink-0 items-center justify-center rounded-full text-xs font-bold text-white',
              toast.tone === 'success' ? 'bg-brand-600' : 'bg-red-600',
            )}
            aria-hidden="true"
          >
            {toast.tone === 'success' ? '✓' : '!'}
          </span>
          <p className="flex-1 font-medium text-slate-800">{toast.message}</p>
          <button
            type="button"
            onClick={() => dismissToast(toast.id)}
            className="-m-1 rounded-md p-1 text-slate-400 hover:text-slate-600"
          >
            <span className="sr-only">Dismiss</span>
            <svg className="size-4" viewBox="0 0 20 20" fill="currentColor" aria-hidden="true">
              <path d="M6.28 5.22a.75.75 0 0 0-1.06 1.06L8.94 10l-3.72 3.72a.75.75 0 1 0 1.06 1.06L10 11.06l3.72 3.72a.75.75 0 1 0 1.06-1.06L11.06 10l3.72-3.72a.75.75 0 0 0-1.06-1.06L10 8.94 6.28 5.22Z" />
            </svg>
          </button>
        </div>
      ))}
    </div>
  );
}

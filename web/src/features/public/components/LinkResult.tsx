import { cn } from '../../../lib/cn';

interface LinkResultProps {
  ok: boolean;
  title: string;
  /** The server's words: what was done, or why not. */
  message: string;
}

/** The answer to an e-mailed link (a subscription confirmation, an unsubscribe): a tick or a warning and why. */
export function LinkResult({ ok, title, message }: LinkResultProps) {
  return (
    <>
      <span
        className={cn(
          'mx-auto flex size-14 items-center justify-center rounded-full text-2xl',
          ok ? 'bg-brand-50 text-brand-600' : 'bg-red-50 font-bold text-red-600',
        )}
      >
        {ok ? '✓' : '!'}
      </span>
      <h1 className="mt-5 text-xl font-bold text-slate-900">{title}</h1>
      <p role={ok ? 'status' : 'alert'} className="mt-2 text-slate-600">
        {message}
      </p>
    </>
  );
}

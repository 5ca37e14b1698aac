import type { ReactNode } from 'react';
import { cn } from '../lib/cn';

type NoticeTone = 'success' | 'error' | 'warning' | 'info';

const tones: Record<NoticeTone, { box: string; badge: string; mark: string }> = {
  success: { box: 'bg-brand-50 ring-brand-600/15', badge: 'bg-brand-600 text-white', mark: '✓' },
  error: { box: 'bg-red-50 ring-red-600/20', badge: 'bg-red-600 text-white', mark: '!' },
  warning: { box: 'bg-gold-50 ring-gold-500/30', badge: 'bg-gold-400 text-brand-950', mark: '!' },
  info: { box: 'bg-sky-50 ring-sky-600/15', badge: 'bg-sky-600 text-white', mark: 'i' },
};

interface NoticeProps {
  tone: NoticeTone;
  title?: ReactNode;
  children?: ReactNode;
  /** Buttons or links shown beside the text (below it on small screens). */
  action?: ReactNode;
  /** `alert` for problems the user must know about at once, `status` for outcomes. */
  role?: 'alert' | 'status';
  className?: string;
}

/** A tinted message box: outcomes, warnings and banners. */
export function Notice({ tone, title, children, action, role, className }: NoticeProps) {
  const look = tones[tone];
  return (
    <div
      role={role}
      className={cn(
        'flex flex-col gap-4 rounded-xl p-4 ring-1 ring-inset sm:flex-row sm:items-center',
        look.box,
        className,
      )}
    >
      <div className="flex flex-1 items-start gap-3">
        <span
          className={cn(
            'flex size-7 shrink-0 items-center justify-center rounded-full text-sm font-bold',
            look.badge,
          )}
          aria-hidden="true"
        >
          {look.mark}
        </span>
        <div className="min-w-0 self-center text-sm text-slate-700">
          {title && <p className="font-semibold text-slate-900">{title}</p>}
          {children && <div className={title ? 'mt-1' : undefined}>{children}</div>}
        </div>
      </div>
      {action && <div className="flex shrink-0 flex-wrap gap-2 sm:ml-2">{action}</div>}
    </div>
  );
}

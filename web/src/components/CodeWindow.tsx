import type { ReactNode } from 'react';
import { cn } from '../lib/cn';

interface CodeWindowProps {
  title: string;
  children: ReactNode;
  className?: string;
}

/** Code shown in a dark terminal-style window. */
export function CodeWindow({ title, children, className }: CodeWindowProps) {
  return (
    <div className={cn('min-w-0 overflow-hidden rounded-2xl bg-brand-950 ring-1 ring-brand-900', className)}>
      <div className="flex items-center gap-2 border-b border-white/10 px-4 py-3">
        <span className="size-3 rounded-full bg-red-400/80" aria-hidden="true" />
        <span className="size-3 rounded-full bg-gold-400/80" aria-hidden="true" />
        <span className="size-3 rounded-full bg-brand-400/80" aria-hidden="true" />
        <span className="ml-2 text-xs font-medium text-brand-200/70">{title}</span>
      </div>
      {/* Focusable so that a keyboard can scroll a long line on a phone. */}
      <pre
        tabIndex={0}
        className="overflow-x-auto p-5 text-[13px] leading-6 text-brand-50 focus-visible:outline-gold-300"
      >
        <code>{children}</code>
      </pre>
    </div>
  );
}

import type { ReactNode } from 'react';
import { cn } from '../lib/cn';

// SPEC §4 status colours (active green, expired red, exhausted dark red) plus the console's neutral tones.
export type PillTone = 'green' | 'red' | 'darkred' | 'gold' | 'slate' | 'blue';

const tones: Record<PillTone, string> = {
  green: 'bg-brand-50 text-brand-700 ring-brand-600/20',
  red: 'bg-red-50 text-red-700 ring-red-600/20',
  darkred: 'bg-red-900 text-red-50 ring-red-950/20',
  gold: 'bg-gold-50 text-gold-700 ring-gold-600/25',
  slate: 'bg-slate-100 text-slate-600 ring-slate-500/20',
  blue: 'bg-sky-50 text-sky-700 ring-sky-600/20',
};

export function Pill({ tone = 'slate', children }: { tone?: PillTone; children: ReactNode }) {
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset',
        tones[tone],
      )}
    >
      {children}
    </span>
  );
}

import type { ReactNode } from 'react';

const TONES = {
  neutral: 'bg-brand-50 text-brand-600',
  error: 'bg-red-50 text-red-600',
} as const;

interface StatusPanelProps {
  tone: keyof typeof TONES;
  /** The icon's path, drawn as a 24 × 24 outline. */
  iconPath: string;
  message: string;
  role?: 'alert';
  children?: ReactNode;
}

/** The centred icon-and-message panel behind the empty and error states of lists and pages. */
export function StatusPanel({ tone, iconPath, message, role, children }: StatusPanelProps) {
  return (
    <div role={role} className="flex flex-col items-center px-6 py-12 text-center">
      <span className={`mb-4 flex size-12 items-center justify-center rounded-full ${TONES[tone]}`}>
        <svg
          className="size-6"
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.75"
          aria-hidden="true"
        >
          <path strokeLinecap="round" strokeLinejoin="round" d={iconPath} />
        </svg>
      </span>
      <p className="font-semibold text-slate-900">{message}</p>
      {children}
    </div>
  );
}

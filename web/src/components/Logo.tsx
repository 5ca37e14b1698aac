import { cn } from '../lib/cn';

interface LogoProps {
  tone?: 'light' | 'dark';
}

/** The AfroFX mark and wordmark; `dark` is for dark backgrounds. */
export function Logo({ tone = 'light' }: LogoProps) {
  return (
    <span className="inline-flex items-center gap-2.5">
      <svg className="size-8 shrink-0" viewBox="0 0 32 32" aria-hidden="true">
        <rect width="32" height="32" rx="9" fill={tone === 'dark' ? '#e8b13a' : '#0d3f2f'} />
        <path
          d="M9 13h12l-3-3M23 19H11l3 3"
          fill="none"
          stroke={tone === 'dark' ? '#06241b' : '#e8b13a'}
          strokeWidth="2.5"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      <span
        className={cn(
          'text-xl font-extrabold tracking-tight',
          tone === 'dark' ? 'text-white' : 'text-brand-900',
        )}
      >
        Afro<span className={tone === 'dark' ? 'text-gold-300' : 'text-gold-700'}>FX</span>
      </span>
    </span>
  );
}

import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { cn } from '../lib/cn';
import { Logo } from './Logo';

interface AuthScreenProps {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  /** Links under the card. */
  footer?: ReactNode;
  /** Wider card, for forms with fields side by side. */
  wide?: boolean;
}

/** The signed-out screens (sign-in, sign-up, password reset, activation): one card on the brand background. */
export function AuthScreen({ title, description, children, footer, wide = false }: AuthScreenProps) {
  return (
    <div className="relative flex min-h-dvh items-center justify-center overflow-hidden bg-brand-950 px-4 py-12">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-0 bg-[radial-gradient(ellipse_at_top,rgba(232,177,58,0.18),transparent_55%),radial-gradient(ellipse_at_bottom_right,rgba(36,148,104,0.35),transparent_60%)]"
      />
      <main className={cn('relative w-full', wide ? 'max-w-lg' : 'max-w-md')}>
        <div className="mb-8 flex justify-center">
          <Link to="/" aria-label="AfroFX home" className="rounded-lg">
            <Logo tone="dark" />
          </Link>
        </div>
        <div className="rounded-2xl bg-white p-6 shadow-2xl sm:p-8">
          <h1 className="text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
          {description && <p className="mt-1 text-sm text-slate-600">{description}</p>}
          {children}
        </div>
        <div className="mt-6 space-y-2 text-center text-sm text-brand-200/80">
          {footer}
          <p>
            <Link to="/" className="hover:text-white">
              ← Back to AfroFX
            </Link>
          </p>
        </div>
      </main>
    </div>
  );
}

/** A link inside an auth screen's card. */
export const authLinkClasses = 'font-semibold text-brand-700 hover:text-brand-900 hover:underline';

/** A link under an auth screen's card, on the dark background. */
export const authFooterLinkClasses = 'font-semibold text-gold-300 hover:text-gold-200 hover:underline';

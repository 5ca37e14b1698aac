import type { ReactNode } from 'react';
import { Link, NavLink } from 'react-router';
import { cn } from '../lib/cn';
import { useScrollToTop } from '../lib/use-scroll-to-top';
import { iconPaths, type IconName } from './icons';
import { Logo } from './Logo';
import { usePagePanel } from './use-page-panel';

export function NavIcon({ name, className }: { name: IconName; className?: string }) {
  return (
    <svg
      className={cn('size-5 shrink-0', className)}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.6"
      aria-hidden="true"
    >
      <path strokeLinecap="round" strokeLinejoin="round" d={iconPaths[name]} />
    </svg>
  );
}

export interface ConsoleNavItem {
  to: string;
  label: string;
  icon: IconName;
  /** False for an entry that is never shown as the current one. */
  highlight?: boolean;
}

/** Look of the sidebar's footer actions (buttons and links). */
export const sidebarActionClasses =
  'flex w-full items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium text-brand-200/80 transition-colors hover:bg-white/5 hover:text-white disabled:cursor-wait disabled:opacity-60';

const navItemClasses = 'flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium transition-colors';
const activeClasses = 'bg-white/10 text-white shadow-[inset_3px_0_0_var(--color-gold-400)]';
const idleClasses = 'text-brand-200/80 hover:bg-white/5 hover:text-white';

interface ConsoleShellProps {
  /** Accessible name of the sidebar, e.g. 'Admin'. */
  label: string;
  homeTo: string;
  homeLabel: string;
  /** The greeting and anything else shown under the logo. */
  intro: ReactNode;
  navLabel: string;
  nav: ReadonlyArray<ConsoleNavItem>;
  footer: ReactNode;
  children: ReactNode;
}

/**
 * The signed-in consoles' frame: a 14rem sidebar (SPEC §9) beside the page. On small screens the sidebar
 * is hidden, opens from a menu button and closes on an outside tap, on Escape or when a link is followed (SPEC §2).
 */
export function ConsoleShell({
  label,
  homeTo,
  homeLabel,
  intro,
  navLabel,
  nav,
  footer,
  children,
}: ConsoleShellProps) {
  useScrollToTop();
  const {
    open: sidebarOpen,
    toggle,
    panelRef: sidebarRef,
    buttonRef: menuButtonRef,
  } = usePagePanel<HTMLElement>();
  const sidebarId = `${label.toLowerCase().replace(/\W+/g, '-')}-sidebar`;

  return (
    <div className="min-h-dvh bg-slate-50 lg:flex print:bg-white">
      <a
        href="#main-content"
        onClick={(event) => {
          // Focus, not the address: the router owns the URL, and a hash there would be a page of its own.
          event.preventDefault();
          document.getElementById('main-content')?.focus();
        }}
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-lg focus:bg-white focus:px-4 focus:py-2 focus:text-sm focus:font-semibold focus:text-brand-900 focus:shadow"
      >
        Skip to main content
      </a>
      <header className="sticky top-0 z-30 flex h-14 print:hidden items-center justify-between border-b border-slate-200 bg-white px-4 lg:hidden">
        <Link to={homeTo} aria-label={homeLabel}>
          <Logo />
        </Link>
        <button
          ref={menuButtonRef}
          type="button"
          aria-expanded={sidebarOpen}
          aria-controls={sidebarId}
          onClick={toggle}
          className="inline-flex items-center gap-2 rounded-lg px-3 py-2 text-sm font-semibold text-slate-700 ring-1 ring-slate-300"
        >
          <svg
            className="size-5"
            viewBox="0 0 24 24"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            aria-hidden="true"
          >
            <path strokeLinecap="round" d="M4 7h16M4 12h16M4 17h16" />
          </svg>
          Menu
        </button>
      </header>

      {sidebarOpen && <div className="fixed inset-0 z-30 bg-slate-950/40 lg:hidden" aria-hidden="true" />}

      <aside
        id={sidebarId}
        ref={sidebarRef}
        aria-label={label}
        className={cn(
          'fixed inset-y-0 left-0 z-40 w-56 bg-brand-950 text-brand-100 transition-transform duration-200 lg:static lg:z-auto lg:shrink-0 lg:translate-x-0 print:hidden',
          sidebarOpen ? 'translate-x-0 shadow-2xl' : '-translate-x-full max-lg:invisible',
        )}
      >
        <div className="flex h-full flex-col overflow-y-auto lg:sticky lg:top-0 lg:h-dvh">
          <div className="px-5 pt-6 pb-4">
            <Link to={homeTo} aria-label={homeLabel} className="inline-block rounded-lg">
              <Logo tone="dark" />
            </Link>
            {intro}
          </div>
          <nav aria-label={navLabel} className="flex-1 px-3 py-2">
            <ul className="space-y-0.5">
              {nav.map((item) => (
                <li key={item.to}>
                  {item.highlight === false ? (
                    <Link to={item.to} className={cn(navItemClasses, idleClasses)}>
                      <NavIcon name={item.icon} />
                      {item.label}
                    </Link>
                  ) : (
                    <NavLink
                      to={item.to}
                      className={({ isActive }) => cn(navItemClasses, isActive ? activeClasses : idleClasses)}
                    >
                      <NavIcon name={item.icon} />
                      {item.label}
                    </NavLink>
                  )}
                </li>
              ))}
            </ul>
          </nav>
          <div className="space-y-1 border-t border-white/10 px-3 py-4">{footer}</div>
        </div>
      </aside>

      <main id="main-content" tabIndex={-1} className="min-w-0 flex-1 focus:outline-none">
        <div className="mx-auto max-w-6xl px-4 py-6 sm:px-6 lg:px-8 lg:py-10">{children}</div>
      </main>
    </div>
  );
}

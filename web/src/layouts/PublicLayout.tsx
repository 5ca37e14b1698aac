import { formatDay } from '@afrofx/shared';
import { Link, NavLink, Outlet } from 'react-router';
import { ExternalLink } from '../components/ExternalLink';
import { Logo } from '../components/Logo';
import { usePagePanel } from '../components/use-page-panel';
import { cn } from '../lib/cn';
import { usePageClock } from '../lib/page-clock';
import { useTelegramBotUrl } from '../api/site-api';
import { DEMO_BOOKING_URL, TWITTER_BOT_URL } from '../lib/links';
import { useScrollToTop } from '../lib/use-scroll-to-top';
import { paths } from '../lib/paths';

const internalLinks = [
  { to: '/', label: 'Home' },
  { to: '/api', label: 'API' },
];

/** The bots the site links to: the Telegram bot only while it runs (the site promises only what runs). */
function useExternalLinks() {
  const telegram = useTelegramBotUrl();
  return [
    { href: TWITTER_BOT_URL, label: 'Twitter bot' },
    ...(telegram ? [{ href: telegram, label: 'Telegram bot' }] : []),
  ];
}

function ExternalIcon() {
  return (
    <svg className="size-3.5 opacity-60" viewBox="0 0 20 20" fill="currentColor" aria-hidden="true">
      <path d="M11 3a1 1 0 1 0 0 2h2.59l-6.3 6.29a1 1 0 1 0 1.42 1.42L15 6.41V9a1 1 0 1 0 2 0V4a1 1 0 0 0-1-1h-5Z" />
      <path d="M5 5a2 2 0 0 0-2 2v8a2 2 0 0 0 2 2h8a2 2 0 0 0 2-2v-3a1 1 0 1 0-2 0v3H5V7h3a1 1 0 0 0 0-2H5Z" />
    </svg>
  );
}

const navLinkClasses = ({ isActive }: { isActive: boolean }) =>
  cn(
    'rounded-lg px-3 py-2 text-sm font-semibold transition-colors',
    isActive ? 'bg-brand-50 text-brand-800' : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900',
  );

function SiteHeader() {
  const { open: menuOpen, toggle, panelRef, buttonRef } = usePagePanel<HTMLElement>();
  const externalLinks = useExternalLinks();

  return (
    <header className="sticky top-0 z-40 border-b border-slate-200/80 bg-white/90 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
        <Link to="/" aria-label="AfroFX home" className="rounded-lg">
          <Logo />
        </Link>
        <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
          {internalLinks.map((link) => (
            <NavLink key={link.to} to={link.to} end className={navLinkClasses}>
              {link.label}
            </NavLink>
          ))}
          {externalLinks.map((link) => (
            <ExternalLink
              key={link.href}
              href={link.href}
              className="inline-flex items-center gap-1.5 rounded-lg px-3 py-2 text-sm font-semibold text-slate-600 hover:bg-slate-100 hover:text-slate-900"
            >
              {link.label}
              <ExternalIcon />
            </ExternalLink>
          ))}
          <Link
            to={paths.developer.signin}
            className="ml-2 inline-flex h-9 items-center rounded-lg px-3 text-sm font-semibold text-brand-800 ring-1 ring-brand-800/25 hover:bg-brand-50"
          >
            Sign in
          </Link>
          <ExternalLink
            href={DEMO_BOOKING_URL}
            className="ml-2 inline-flex h-9 items-center rounded-lg bg-brand-800 px-4 text-sm font-semibold text-white shadow-sm hover:bg-brand-900"
          >
            Book a demo
          </ExternalLink>
        </nav>
        <button
          ref={buttonRef}
          type="button"
          className="inline-flex items-center gap-2 rounded-lg px-3 py-2 text-sm font-semibold text-slate-700 ring-1 ring-slate-300 md:hidden"
          aria-expanded={menuOpen}
          aria-controls="mobile-menu"
          onClick={toggle}
        >
          <svg
            className="size-5"
            viewBox="0 0 24 24"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            aria-hidden="true"
          >
            {menuOpen ? (
              <path strokeLinecap="round" d="M6 6l12 12M18 6 6 18" />
            ) : (
              <path strokeLinecap="round" d="M4 7h16M4 12h16M4 17h16" />
            )}
          </svg>
          Menu
        </button>
      </div>
      {menuOpen && (
        <nav
          ref={panelRef}
          id="mobile-menu"
          aria-label="Main"
          className="border-t border-slate-200 bg-white px-4 pt-2 pb-4 md:hidden"
        >
          <ul className="flex flex-col gap-1">
            {internalLinks.map((link) => (
              <li key={link.to}>
                <NavLink to={link.to} end className={(state) => cn(navLinkClasses(state), 'block py-2.5')}>
                  {link.label}
                </NavLink>
              </li>
            ))}
            {externalLinks.map((link) => (
              <li key={link.href}>
                <ExternalLink
                  href={link.href}
                  className="flex items-center gap-1.5 rounded-lg px-3 py-2.5 text-sm font-semibold text-slate-600 hover:bg-slate-100"
                >
                  {link.label}
                  <ExternalIcon />
                </ExternalLink>
              </li>
            ))}
            <li className="grid grid-cols-2 gap-2 pt-2">
              <Link
                to={paths.developer.signin}
                className="flex h-11 items-center justify-center rounded-lg text-sm font-semibold text-brand-800 ring-1 ring-brand-800/25"
              >
                Sign in
              </Link>
              <ExternalLink
                href={DEMO_BOOKING_URL}
                className="flex h-11 items-center justify-center rounded-lg bg-brand-800 text-sm font-semibold text-white"
              >
                Book a demo
              </ExternalLink>
            </li>
          </ul>
        </nav>
      )}
    </header>
  );
}

const footerColumns = [
  {
    title: 'Product',
    links: [
      { to: '/', label: 'Today’s rates' },
      { to: '/rate_calculator', label: 'Rate calculator' },
      { to: '/api', label: 'Forex API' },
    ],
  },
  {
    title: 'Company',
    links: [
      { to: '/company/privacy', label: 'Privacy policy' },
      { to: '/company/terms_of_use', label: 'Terms of use' },
      { to: '/status', label: 'Service status' },
    ],
  },
];

function SiteFooter() {
  const externalLinks = useExternalLinks();
  const { now, timeZone } = usePageClock();
  return (
    <footer className="bg-brand-950 text-brand-100">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:px-6 md:grid-cols-[2fr_1fr_1fr_1fr]">
        <div>
          <Logo tone="dark" />
          <p className="mt-4 max-w-xs text-sm leading-6 text-brand-200/80">
            Daily bank, cash and transfer rates for the naira, shilling, rand and cedi — on the web, in your
            inbox and through our API.
          </p>
        </div>
        {footerColumns.map((column) => (
          <div key={column.title}>
            <h2 className="text-sm font-semibold text-white">{column.title}</h2>
            <ul className="mt-3 space-y-2 text-sm">
              {column.links.map((link) => (
                <li key={link.to}>
                  <Link to={link.to} className="text-brand-200/80 hover:text-white">
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        ))}
        <div>
          <h2 className="text-sm font-semibold text-white">Follow the rates</h2>
          <ul className="mt-3 space-y-2 text-sm">
            {[...externalLinks, { href: DEMO_BOOKING_URL, label: 'Book a demo' }].map((link) => (
              <li key={link.href}>
                <ExternalLink href={link.href} className="text-brand-200/80 hover:text-white">
                  {link.label}
                </ExternalLink>
              </li>
            ))}
          </ul>
        </div>
      </div>
      <div className="border-t border-white/10">
        <p className="mx-auto max-w-6xl px-4 py-5 text-xs text-brand-200/60 sm:px-6">
          © {formatDay(now, timeZone).slice(-4)} AfroFX. Rates are indicative and provided for information
          only.
        </p>
      </div>
    </footer>
  );
}

export function PublicLayout() {
  useScrollToTop();
  return (
    <div className="public-site flex min-h-dvh flex-col bg-slate-50">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-lg focus:bg-white focus:px-4 focus:py-2 focus:shadow"
      >
        Skip to content
      </a>
      <SiteHeader />
      <main id="main" className="flex-1">
        <Outlet />
      </main>
      <SiteFooter />
    </div>
  );
}

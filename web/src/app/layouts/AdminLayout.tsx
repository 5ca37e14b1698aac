import { useEffect, useRef, useState } from 'react';
import { Link, NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { Logo } from '../../components/Logo';
import { cn } from '../../lib/cn';
import { clearAdminSession, readAdminSession } from '../../lib/session';
import { useScrollToTop } from './use-scroll-to-top';

// Outline icon paths, 24×24.
const icons = {
  emails:
    'M21.75 6.75v10.5a2.25 2.25 0 0 1-2.25 2.25h-15a2.25 2.25 0 0 1-2.25-2.25V6.75m19.5 0A2.25 2.25 0 0 0 19.5 4.5h-15a2.25 2.25 0 0 0-2.25 2.25m19.5 0-9.75 6.5-9.75-6.5',
  users:
    'M15 19.13a9.4 9.4 0 0 0 6-2.13 4.5 4.5 0 0 0-8.2-2.56M15 19.13v-.01a6.7 6.7 0 0 0-1.04-3.6M15 19.13A12.3 12.3 0 0 1 8.62 21 12.3 12.3 0 0 1 2.25 19.13a6.4 6.4 0 0 1 11.71-3.6M12 6.37a3.37 3.37 0 1 1-6.75 0 3.37 3.37 0 0 1 6.75 0Zm8.25 2.25a2.62 2.62 0 1 1-5.25 0 2.62 2.62 0 0 1 5.25 0Z',
  rates: 'M3 13.13 9 7.13l4.5 4.5L21 4.13M21 4.13v5.25M21 4.13h-5.25M3 20.25h18',
  customers:
    'M8.25 6.75h12M8.25 12h12m-12 5.25h12M3.75 6.75h.01v.01h-.01v-.01Zm0 5.25h.01v.01h-.01V12Zm0 5.25h.01v.01h-.01v-.01Z',
  plans:
    'M9.57 3H5.25A2.25 2.25 0 0 0 3 5.25v4.32c0 .6.24 1.17.66 1.6l9.58 9.58a1.5 1.5 0 0 0 2.12 0l4.32-4.32a1.5 1.5 0 0 0 0-2.12L10.1 3.66A2.25 2.25 0 0 0 9.57 3ZM6 6h.01v.01H6V6Z',
  apps: 'M3.75 6A2.25 2.25 0 0 1 6 3.75h2.25A2.25 2.25 0 0 1 10.5 6v2.25a2.25 2.25 0 0 1-2.25 2.25H6a2.25 2.25 0 0 1-2.25-2.25V6Zm0 9.75A2.25 2.25 0 0 1 6 13.5h2.25a2.25 2.25 0 0 1 2.25 2.25V18a2.25 2.25 0 0 1-2.25 2.25H6A2.25 2.25 0 0 1 3.75 18v-2.25ZM13.5 6a2.25 2.25 0 0 1 2.25-2.25H18A2.25 2.25 0 0 1 20.25 6v2.25A2.25 2.25 0 0 1 18 10.5h-2.25a2.25 2.25 0 0 1-2.25-2.25V6Zm0 9.75a2.25 2.25 0 0 1 2.25-2.25H18a2.25 2.25 0 0 1 2.25 2.25V18A2.25 2.25 0 0 1 18 20.25h-2.25A2.25 2.25 0 0 1 13.5 18v-2.25Z',
  transactions:
    'M2.25 8.25h19.5M2.25 9h19.5m-16.5 5.25h6m-6 2.25h3m-3.75 3h15a2.25 2.25 0 0 0 2.25-2.25V6.75A2.25 2.25 0 0 0 19.5 4.5h-15a2.25 2.25 0 0 0-2.25 2.25v10.5A2.25 2.25 0 0 0 4.5 19.5Z',
  subscriptions:
    'M16.02 9.35h4.99V4.36M2.99 19.64v-4.99h4.99m0 0-3.18 3.18a8.25 8.25 0 0 0 13.8-3.7M4.03 9.87a8.25 8.25 0 0 1 13.8-3.7l3.18 3.18',
  logout:
    'M15.75 9V5.25A2.25 2.25 0 0 0 13.5 3h-6a2.25 2.25 0 0 0-2.25 2.25v13.5A2.25 2.25 0 0 0 7.5 21h6a2.25 2.25 0 0 0 2.25-2.25V15m3 0 3-3m0 0-3-3m3 3H9',
};

const adminLinks: ReadonlyArray<{ to: string; label: string; icon: keyof typeof icons }> = [
  { to: '/admin/emails', label: 'Emails', icon: 'emails' },
  { to: '/admin/users', label: 'Users', icon: 'users' },
  { to: '/admin/rates', label: 'Rates', icon: 'rates' },
  { to: '/admin/api_wait_list', label: 'API Customers', icon: 'customers' },
  { to: '/admin/plans', label: 'Plans', icon: 'plans' },
  { to: '/admin/apps', label: 'Apps', icon: 'apps' },
  { to: '/admin/transactions', label: 'Transactions', icon: 'transactions' },
  { to: '/admin/subscriptions', label: 'Subscriptions', icon: 'subscriptions' },
];

function Icon({ path }: { path: string }) {
  return (
    <svg
      className="size-5 shrink-0"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.6"
      aria-hidden="true"
    >
      <path strokeLinecap="round" strokeLinejoin="round" d={path} />
    </svg>
  );
}

export function AdminLayout() {
  useScrollToTop();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const email = readAdminSession()?.userData.email ?? '';
  // The mobile sidebar belongs to the page it was opened on, so following a link closes it.
  const [openOnPath, setOpenOnPath] = useState<string | null>(null);
  const sidebarOpen = openOnPath === pathname;
  const sidebarRef = useRef<HTMLElement>(null);
  const menuButtonRef = useRef<HTMLButtonElement>(null);

  // SPEC §2: on small screens the sidebar closes on an outside click.
  useEffect(() => {
    if (!sidebarOpen) return;
    const onPointerDown = (event: MouseEvent) => {
      const target = event.target as Node;
      if (sidebarRef.current?.contains(target) || menuButtonRef.current?.contains(target)) return;
      setOpenOnPath(null);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpenOnPath(null);
    };
    document.addEventListener('mousedown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('mousedown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [sidebarOpen]);

  const logOut = () => {
    clearAdminSession();
    navigate('/admin/login', { replace: true });
  };

  return (
    <div className="min-h-dvh bg-slate-50 lg:flex">
      <header className="sticky top-0 z-30 flex h-14 items-center justify-between border-b border-slate-200 bg-white px-4 lg:hidden">
        <Link to="/admin/emails" aria-label="AfroFX admin home">
          <Logo />
        </Link>
        <button
          ref={menuButtonRef}
          type="button"
          aria-expanded={sidebarOpen}
          aria-controls="admin-sidebar"
          onClick={() => setOpenOnPath(sidebarOpen ? null : pathname)}
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
        id="admin-sidebar"
        ref={sidebarRef}
        aria-label="Admin"
        className={cn(
          'fixed inset-y-0 left-0 z-40 w-56 bg-brand-950 text-brand-100 transition-transform duration-200 lg:static lg:z-auto lg:shrink-0 lg:translate-x-0',
          sidebarOpen ? 'translate-x-0 shadow-2xl' : '-translate-x-full max-lg:invisible',
        )}
      >
        <div className="flex h-full flex-col lg:sticky lg:top-0 lg:h-dvh">
          <div className="px-5 pt-6 pb-4">
            <Link to="/admin/emails" aria-label="AfroFX admin home" className="inline-block rounded-lg">
              <Logo tone="dark" />
            </Link>
            <p className="mt-6 text-xs font-medium tracking-wide text-brand-300/80 uppercase">Signed in</p>
            <p className="mt-1 text-sm text-white">
              Hello,{' '}
              <span className="block truncate font-semibold" title={email}>
                {email}
              </span>
            </p>
          </div>
          <nav aria-label="Admin sections" className="flex-1 overflow-y-auto px-3 py-2">
            <ul className="space-y-0.5">
              {adminLinks.map((link) => (
                <li key={link.to}>
                  <NavLink
                    to={link.to}
                    className={({ isActive }) =>
                      cn(
                        'flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium transition-colors',
                        isActive
                          ? 'bg-white/10 text-white shadow-[inset_3px_0_0_var(--color-gold-400)]'
                          : 'text-brand-200/80 hover:bg-white/5 hover:text-white',
                      )
                    }
                  >
                    <Icon path={icons[link.icon]} />
                    {link.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          <div className="space-y-3 border-t border-white/10 px-3 py-4">
            <span className="ml-3 inline-flex rounded-full bg-gold-400/15 px-2.5 py-0.5 text-xs font-semibold text-gold-300 ring-1 ring-gold-400/30 ring-inset">
              Version 1.0
            </span>
            <button
              type="button"
              onClick={logOut}
              className="flex w-full items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium text-brand-200/80 hover:bg-white/5 hover:text-white"
            >
              <Icon path={icons.logout} />
              Log out
            </button>
          </div>
        </div>
      </aside>

      <main className="min-w-0 flex-1">
        <div className="mx-auto max-w-6xl px-4 py-6 sm:px-6 lg:px-8 lg:py-10">
          <Outlet />
        </div>
      </main>
    </div>
  );
}

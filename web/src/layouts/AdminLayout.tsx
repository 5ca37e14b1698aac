import { Outlet, useNavigate } from 'react-router';
import { ConsoleShell, NavIcon, sidebarActionClasses, type ConsoleNavItem } from '../components/ConsoleShell';
import { useAdminSignoutMutation } from '../features/admin/admin-api';
import { clearAdminSession, readAdminSession } from '../lib/session';
import { paths } from '../lib/paths';

const adminLinks: ReadonlyArray<ConsoleNavItem> = [
  { to: paths.admin.desk, label: 'Desk', icon: 'rates' },
  { to: paths.admin.emails, label: 'Emails', icon: 'emails' },
  { to: paths.admin.users, label: 'Users', icon: 'users' },
  { to: paths.admin.rates, label: 'Rates', icon: 'rates' },
  { to: paths.admin.apiWaitList, label: 'API Customers', icon: 'customers' },
  { to: paths.admin.plans, label: 'Plans', icon: 'plans' },
  { to: paths.admin.apps, label: 'Apps', icon: 'apps' },
  { to: paths.admin.transactions, label: 'Transactions', icon: 'transactions' },
  { to: paths.admin.subscriptions, label: 'Subscriptions', icon: 'subscriptions' },
  { to: paths.admin.activity, label: 'Activity', icon: 'book' },
  { to: paths.admin.changePassword, label: 'Password', icon: 'lock' },
];

export function AdminLayout() {
  const navigate = useNavigate();
  const email = readAdminSession()?.userData.email ?? '';

  const [signout] = useAdminSignoutMutation();

  const logOut = async () => {
    // The server clears the httpOnly cookie; this console forgets the admin whatever the answer.
    await signout();
    clearAdminSession();
    navigate(paths.admin.login, { replace: true });
  };

  return (
    <ConsoleShell
      label="Admin"
      homeTo={paths.admin.emails}
      homeLabel="AfroFX admin home"
      navLabel="Admin sections"
      nav={adminLinks}
      intro={
        <>
          <p className="mt-6 text-xs font-medium tracking-wide text-brand-300/80 uppercase">Signed in</p>
          <p className="mt-1 text-sm text-white">
            Hello,{' '}
            <span className="block truncate font-semibold" title={email}>
              {email}
            </span>
          </p>
        </>
      }
      footer={
        <>
          <span className="mb-2 ml-3 inline-flex rounded-full bg-gold-400/15 px-2.5 py-0.5 text-xs font-semibold text-gold-300 ring-1 ring-gold-400/30 ring-inset">
            Version 1.0
          </span>
          <button type="button" onClick={logOut} className={sidebarActionClasses}>
            <NavIcon name="logout" />
            Log out
          </button>
        </>
      }
    >
      <Outlet />
    </ConsoleShell>
  );
}

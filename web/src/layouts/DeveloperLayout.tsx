import { useSupportEmail } from '../api/site-api';
import type { Subscription } from '@afrofx/shared';
import { skipToken } from '@reduxjs/toolkit/query';
import { useState } from 'react';
import { Link, Outlet, useNavigate } from 'react-router';
import { api } from '../api/base-api';
import { useAppDispatch } from '../store/hooks';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ConsoleShell, NavIcon, sidebarActionClasses, type ConsoleNavItem } from '../components/ConsoleShell';
import { ExternalLink } from '../components/ExternalLink';
import { API_DOCS_URL } from '../lib/links';
import { clearDeveloperSession, readDeveloperSession } from '../lib/session';
import { useCurrentApp } from '../features/developer/current-app';
import { useFetchSubscriptionQuery, useSignoutMutation } from '../features/developer/developer-api';
import { SupportActions } from '../features/developer/components/SupportActions';
import { paths } from '../lib/paths';

// SPEC §2: Your Apps is never shown as the current entry.
const developerLinks: ReadonlyArray<ConsoleNavItem> = [
  { to: paths.developer.home, label: 'Home', icon: 'home' },
  { to: paths.developer.request, label: 'Request', icon: 'request' },
  { to: paths.developer.plans, label: 'Plans', icon: 'plans' },
  { to: paths.developer.apiKeys, label: 'API Keys', icon: 'key' },
  { to: paths.developer.webhooks, label: 'Webhooks', icon: 'webhook' },
  { to: paths.developer.receipts, label: 'Receipts', icon: 'transactions' },
  { to: paths.developer.apps, label: 'Your Apps', icon: 'apps', highlight: false },
  { to: paths.developer.changePassword, label: 'Password', icon: 'lock' },
];

/** SPEC §3: the support gate only asks whether a subscription is present; undefined while it is checked. */
function subscriptionPresent(
  appSelected: boolean,
  query: { currentData?: Subscription | null; isError: boolean },
): boolean | undefined {
  if (!appSelected || query.isError) return false;
  if (query.currentData === undefined) return undefined;
  return query.currentData !== null;
}

export function DeveloperLayout() {
  const supportEmail = useSupportEmail();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const user = readDeveloperSession()?.userData;
  const name = [user?.first_name, user?.last_name].filter(Boolean).join(' ');
  const currentApp = useCurrentApp();
  const [confirmingLogout, setConfirmingLogout] = useState(false);
  const subscription = useFetchSubscriptionQuery(currentApp?._id ?? skipToken);
  const hasSubscription = subscriptionPresent(currentApp !== null, subscription);

  const [signout] = useSignoutMutation();

  const logOut = async () => {
    // The server clears the httpOnly cookie; this tab forgets the account whatever the answer.
    await signout();
    clearDeveloperSession();
    // Nothing of this account may show to whoever signs in next in this tab.
    dispatch(api.util.resetApiState());
    navigate(paths.developer.signin, { replace: true });
  };

  return (
    <ConsoleShell
      label="Developer"
      homeTo={paths.developer.home}
      homeLabel="AfroFX developer home"
      navLabel="Developer sections"
      nav={developerLinks}
      intro={
        <>
          <p className="mt-6 text-sm text-white">
            Hello,{' '}
            <span className="block truncate font-semibold" title={name}>
              {name}
            </span>
          </p>
          <div className="mt-5 rounded-xl bg-white/5 p-3 ring-1 ring-white/10">
            <p className="text-xs font-medium tracking-wide text-brand-300/80 uppercase">Current app</p>
            <p
              className="mt-1 truncate text-sm font-semibold text-white"
              title={currentApp?.name}
              data-testid="current-app"
            >
              {currentApp?.name ?? 'No app selected'}
            </p>
            <Link
              to={paths.developer.apps}
              className="mt-2 inline-flex items-center gap-1 rounded text-xs font-semibold text-gold-300 hover:text-gold-200"
            >
              <NavIcon name="subscriptions" className="size-3.5" />
              {currentApp ? 'Switch app' : 'Choose an app'}
            </Link>
          </div>
        </>
      }
      footer={
        <>
          <ExternalLink href={API_DOCS_URL} className={sidebarActionClasses}>
            <NavIcon name="book" />
            API documentation
          </ExternalLink>
          <SupportActions hasSubscription={hasSubscription} supportEmail={supportEmail} />
          <button type="button" onClick={() => setConfirmingLogout(true)} className={sidebarActionClasses}>
            <NavIcon name="logout" />
            Log out
          </button>
          <ConfirmDialog
            open={confirmingLogout}
            title="Log out?"
            message="You will need to sign in again to manage your apps and keys."
            confirmLabel="Log out"
            onConfirm={logOut}
            onCancel={() => setConfirmingLogout(false)}
          />
        </>
      }
    >
      <Outlet />
    </ConsoleShell>
  );
}

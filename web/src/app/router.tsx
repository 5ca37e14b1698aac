import { lazy, Suspense, type ComponentType } from 'react';
import { Navigate, useRoutes, type RouteObject } from 'react-router';
import { Spinner } from '../components/Spinner';
import { CurrentAppRoute } from '../features/developer/components/CurrentAppRoute';
import { HomePage } from '../features/public/pages/HomePage';
import { PublicLayout } from './layouts/PublicLayout';
import { NotFoundPage } from './NotFoundPage';
import {
  RedirectSignedInAdmin,
  RedirectSignedInDeveloper,
  RequireAdmin,
  RequireDeveloper,
} from './route-guards';

/**
 * A page whose code loads on first use: `/` carries only the home page, and the developer portal and the admin
 * console are chunks of their own. The page waits inside its layout, so the header stays while it loads.
 */
function lazyPage<M, P extends object>(load: () => Promise<M>, pick: (module: M) => ComponentType<P>) {
  const Page = lazy(async () => ({ default: pick(await load()) }));
  return function LazyPage(props: P) {
    return (
      <Suspense fallback={<PageLoading />}>
        <Page {...props} />
      </Suspense>
    );
  };
}

const loadDeveloperPortal = () => import('../features/developer');
const loadAdminConsole = () => import('../features/admin');

const DeveloperLayout = lazyPage(loadDeveloperPortal, (portal) => portal.DeveloperLayout);
const SigninPage = lazyPage(loadDeveloperPortal, (portal) => portal.SigninPage);
const SignupPage = lazyPage(loadDeveloperPortal, (portal) => portal.SignupPage);
const ActivateAccountPage = lazyPage(loadDeveloperPortal, (portal) => portal.ActivateAccountPage);
const RequestPasswordResetPage = lazyPage(loadDeveloperPortal, (portal) => portal.RequestPasswordResetPage);
const ResetPasswordPage = lazyPage(loadDeveloperPortal, (portal) => portal.ResetPasswordPage);
const AppsPage = lazyPage(loadDeveloperPortal, (portal) => portal.AppsPage);
const DashboardPage = lazyPage(loadDeveloperPortal, (portal) => portal.DashboardPage);
const ApiKeysPage = lazyPage(loadDeveloperPortal, (portal) => portal.ApiKeysPage);
const RequestLogPage = lazyPage(loadDeveloperPortal, (portal) => portal.RequestLogPage);
const PlansPage = lazyPage(loadDeveloperPortal, (portal) => portal.PlansPage);
const ChangePasswordPage = lazyPage(loadDeveloperPortal, (portal) => portal.ChangePasswordPage);
const WebhooksPage = lazyPage(loadDeveloperPortal, (portal) => portal.WebhooksPage);

const AdminLayout = lazyPage(
  () => import('./layouts/AdminLayout'),
  (layout) => layout.AdminLayout,
);
const AdminLoginPage = lazyPage(loadAdminConsole, (admin) => admin.AdminLoginPage);
const EmailsPage = lazyPage(loadAdminConsole, (admin) => admin.EmailsPage);
const UsersPage = lazyPage(loadAdminConsole, (admin) => admin.UsersPage);
const RatesPage = lazyPage(loadAdminConsole, (admin) => admin.RatesPage);
const ApiWaitListPage = lazyPage(loadAdminConsole, (admin) => admin.ApiWaitListPage);
const AdminPlansPage = lazyPage(loadAdminConsole, (admin) => admin.PlansPage);
const AdminAppsPage = lazyPage(loadAdminConsole, (admin) => admin.AppsPage);
const TransactionsPage = lazyPage(loadAdminConsole, (admin) => admin.TransactionsPage);
const SubscriptionsPage = lazyPage(loadAdminConsole, (admin) => admin.SubscriptionsPage);

const ApiPage = lazyPage(
  () => import('../features/public/pages/ApiPage'),
  (page) => page.ApiPage,
);
const RateCalculatorPage = lazyPage(
  () => import('../features/public/pages/RateCalculatorPage'),
  (page) => page.RateCalculatorPage,
);
const ConfirmationPage = lazyPage(
  () => import('../features/public/pages/ConfirmationPage'),
  (page) => page.ConfirmationPage,
);
const UnsubscribePage = lazyPage(
  () => import('../features/public/pages/UnsubscribePage'),
  (page) => page.UnsubscribePage,
);
const PrivacyPage = lazyPage(
  () => import('../features/public/pages/PrivacyPage'),
  (page) => page.PrivacyPage,
);
const TermsPage = lazyPage(
  () => import('../features/public/pages/TermsPage'),
  (page) => page.TermsPage,
);
// The chart page brings the charting library: its own chunk, so the home page does not grow.
const RateHistoryPage = lazyPage(
  () => import('../features/public/pages/RateHistoryPage'),
  (page) => page.RateHistoryPage,
);
const StatusPage = lazyPage(
  () => import('../features/public/pages/StatusPage'),
  (page) => page.StatusPage,
);

const routes: RouteObject[] = [
  {
    path: '/admin/login',
    element: (
      <RedirectSignedInAdmin>
        <AdminLoginPage />
      </RedirectSignedInAdmin>
    ),
  },
  {
    path: '/admin',
    element: (
      <RequireAdmin>
        <AdminLayout />
      </RequireAdmin>
    ),
    children: [
      { index: true, element: <Navigate to="/admin/emails" replace /> },
      { path: 'emails', element: <EmailsPage /> },
      { path: 'users', element: <UsersPage /> },
      { path: 'rates', element: <RatesPage /> },
      { path: 'api_wait_list', element: <ApiWaitListPage /> },
      { path: 'plans', element: <AdminPlansPage /> },
      { path: 'apps', element: <AdminAppsPage /> },
      { path: 'transactions', element: <TransactionsPage /> },
      { path: 'subscriptions', element: <SubscriptionsPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
  {
    path: '/developer/signin',
    element: (
      <RedirectSignedInDeveloper>
        <SigninPage />
      </RedirectSignedInDeveloper>
    ),
  },
  {
    path: '/developer/signup',
    element: (
      <RedirectSignedInDeveloper>
        <SignupPage />
      </RedirectSignedInDeveloper>
    ),
  },
  { path: '/developer/activate_account/:accountId', element: <ActivateAccountPage /> },
  { path: '/developer/request_password_reset', element: <RequestPasswordResetPage /> },
  { path: '/developer/reset_password/:code', element: <ResetPasswordPage /> },
  {
    path: '/developer',
    element: (
      <RequireDeveloper>
        <DeveloperLayout />
      </RequireDeveloper>
    ),
    children: [
      { index: true, element: <Navigate to="/developer/apps" replace /> },
      { path: 'apps', element: <AppsPage /> },
      { path: 'home', element: <CurrentAppRoute page={DashboardPage} /> },
      { path: 'api', element: <CurrentAppRoute page={ApiKeysPage} /> },
      { path: 'request', element: <CurrentAppRoute page={RequestLogPage} /> },
      { path: 'plans', element: <CurrentAppRoute page={PlansPage} /> },
      { path: 'webhooks', element: <CurrentAppRoute page={WebhooksPage} /> },
      { path: 'change_password', element: <ChangePasswordPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
  {
    element: <PublicLayout />,
    children: [
      { index: true, element: <HomePage /> },
      { path: 'api', element: <ApiPage /> },
      { path: 'rate_calculator', element: <RateCalculatorPage /> },
      { path: 'rate_history', element: <RateHistoryPage /> },
      { path: 'confirmation/:id', element: <ConfirmationPage /> },
      { path: 'unsubscribe/:token', element: <UnsubscribePage /> },
      { path: 'company/privacy', element: <PrivacyPage /> },
      { path: 'company/terms_of_use', element: <TermsPage /> },
      { path: 'status', element: <StatusPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

// The spinner fades in only after a short wait (animate-appear), so a chunk that arrives quickly shows no flash.
function PageLoading() {
  return (
    <div className="flex min-h-[60dvh] animate-appear items-center justify-center">
      <Spinner label="Loading the page" className="text-brand-600 [&_svg]:size-8" />
    </div>
  );
}

export function AppRoutes() {
  return useRoutes(routes);
}

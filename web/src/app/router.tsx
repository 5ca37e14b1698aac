import { lazy, Suspense, type ComponentType } from 'react';
import { Navigate, useRoutes, type RouteObject } from 'react-router';
import { Spinner } from '../components/Spinner';
import { AdminLoginPage } from '../features/admin/pages/AdminLoginPage';
import { ApiWaitListPage } from '../features/admin/pages/ApiWaitListPage';
import { AppsPage as AdminAppsPage } from '../features/admin/pages/AppsPage';
import { EmailsPage } from '../features/admin/pages/EmailsPage';
import { PlansPage as AdminPlansPage } from '../features/admin/pages/PlansPage';
import { RatesPage } from '../features/admin/pages/RatesPage';
import { SubscriptionsPage } from '../features/admin/pages/SubscriptionsPage';
import { TransactionsPage } from '../features/admin/pages/TransactionsPage';
import { UsersPage } from '../features/admin/pages/UsersPage';
import { CurrentAppRoute } from '../features/developer/components/CurrentAppRoute';
import { ApiPage } from '../features/public/pages/ApiPage';
import { ConfirmationPage } from '../features/public/pages/ConfirmationPage';
import { UnsubscribePage } from '../features/public/pages/UnsubscribePage';
import { HomePage } from '../features/public/pages/HomePage';
import { PrivacyPage } from '../features/public/pages/PrivacyPage';
import { RateCalculatorPage } from '../features/public/pages/RateCalculatorPage';
import { StatusPage } from '../features/public/pages/StatusPage';
import { TermsPage } from '../features/public/pages/TermsPage';
import { AdminLayout } from './layouts/AdminLayout';
import { PublicLayout } from './layouts/PublicLayout';
import { NotFoundPage } from './NotFoundPage';
import {
  RedirectSignedInAdmin,
  RedirectSignedInDeveloper,
  RequireAdmin,
  RequireDeveloper,
} from './route-guards';

type DeveloperPortal = typeof import('../features/developer');

/** A page of the developer portal, whose code loads on first use. */
function developerPage<P extends object>(pick: (portal: DeveloperPortal) => ComponentType<P>) {
  return lazy(async () => ({ default: pick(await import('../features/developer')) }));
}

// The chart page brings the charting library: its own chunk, so the home page does not grow.
const RateHistoryPage = lazy(async () => ({
  default: (await import('../features/public/pages/RateHistoryPage')).RateHistoryPage,
}));

const DeveloperLayout = developerPage((portal) => portal.DeveloperLayout);
const SigninPage = developerPage((portal) => portal.SigninPage);
const SignupPage = developerPage((portal) => portal.SignupPage);
const ActivateAccountPage = developerPage((portal) => portal.ActivateAccountPage);
const RequestPasswordResetPage = developerPage((portal) => portal.RequestPasswordResetPage);
const ResetPasswordPage = developerPage((portal) => portal.ResetPasswordPage);
const AppsPage = developerPage((portal) => portal.AppsPage);
const DashboardPage = developerPage((portal) => portal.DashboardPage);
const ApiKeysPage = developerPage((portal) => portal.ApiKeysPage);
const RequestLogPage = developerPage((portal) => portal.RequestLogPage);
const PlansPage = developerPage((portal) => portal.PlansPage);
const ChangePasswordPage = developerPage((portal) => portal.ChangePasswordPage);
const WebhooksPage = developerPage((portal) => portal.WebhooksPage);

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

function PageLoading() {
  return (
    <div className="flex min-h-dvh items-center justify-center">
      <Spinner label="Loading the page" className="text-brand-600 [&_svg]:size-8" />
    </div>
  );
}

export function AppRoutes() {
  return <Suspense fallback={<PageLoading />}>{useRoutes(routes)}</Suspense>;
}

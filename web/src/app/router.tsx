import { Navigate, useRoutes, type RouteObject } from 'react-router';
import { ComingSoonPage, type UpcomingSection } from '../features/admin/pages/ComingSoonPage';
import { AdminLoginPage } from '../features/admin/pages/AdminLoginPage';
import { EmailsPage } from '../features/admin/pages/EmailsPage';
import { RatesPage } from '../features/admin/pages/RatesPage';
import { ApiPage } from '../features/public/pages/ApiPage';
import { ConfirmationPage } from '../features/public/pages/ConfirmationPage';
import { HomePage } from '../features/public/pages/HomePage';
import { PrivacyPage } from '../features/public/pages/PrivacyPage';
import { RateCalculatorPage } from '../features/public/pages/RateCalculatorPage';
import { TermsPage } from '../features/public/pages/TermsPage';
import { AdminLayout } from './layouts/AdminLayout';
import { PublicLayout } from './layouts/PublicLayout';
import { NotFoundPage } from './NotFoundPage';
import { RedirectSignedInAdmin, RequireAdmin } from './route-guards';

const upcomingAdminSections: readonly UpcomingSection[] = [
  'users',
  'api_wait_list',
  'plans',
  'apps',
  'transactions',
  'subscriptions',
];

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
      { path: 'rates', element: <RatesPage /> },
      ...upcomingAdminSections.map((section) => ({
        path: section,
        element: <ComingSoonPage key={section} section={section} />,
      })),
      { path: '*', element: <NotFoundPage /> },
    ],
  },
  {
    element: <PublicLayout />,
    children: [
      { index: true, element: <HomePage /> },
      { path: 'api', element: <ApiPage /> },
      { path: 'rate_calculator', element: <RateCalculatorPage /> },
      { path: 'confirmation/:id', element: <ConfirmationPage /> },
      { path: 'company/privacy', element: <PrivacyPage /> },
      { path: 'company/terms_of_use', element: <TermsPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export function AppRoutes() {
  return useRoutes(routes);
}

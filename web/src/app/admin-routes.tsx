import { Navigate, useRoutes, type RouteObject } from 'react-router';
import {
  ActivityPage,
  AdminLoginPage,
  DeskPage,
  ApiWaitListPage,
  AppsPage,
  ChangePasswordPage,
  EmailsPage,
  PlansPage,
  RatesPage,
  SubscriptionsPage,
  TransactionsPage,
  UsersPage,
} from '../features/admin';
import { AdminLayout } from '../layouts/AdminLayout';
import { NotFoundPage } from './NotFoundPage';
import { RedirectSignedInAdmin, RequireAdmin } from './route-guards';
import { paths } from '../lib/paths';

// Below /admin: the console's routes come with its chunk, so that `/` carries neither them nor their guards.
export const routes: RouteObject[] = [
  {
    path: 'login',
    element: (
      <RedirectSignedInAdmin>
        <AdminLoginPage />
      </RedirectSignedInAdmin>
    ),
  },
  {
    element: (
      <RequireAdmin>
        <AdminLayout />
      </RequireAdmin>
    ),
    children: [
      { index: true, element: <Navigate to={paths.admin.emails} replace /> },
      { path: 'desk', element: <DeskPage /> },
      { path: 'activity', element: <ActivityPage /> },
      { path: 'emails', element: <EmailsPage /> },
      { path: 'users', element: <UsersPage /> },
      { path: 'rates', element: <RatesPage /> },
      { path: 'api_wait_list', element: <ApiWaitListPage /> },
      { path: 'plans', element: <PlansPage /> },
      { path: 'apps', element: <AppsPage /> },
      { path: 'transactions', element: <TransactionsPage /> },
      { path: 'subscriptions', element: <SubscriptionsPage /> },
      { path: 'change_password', element: <ChangePasswordPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export function AdminRoutes() {
  return useRoutes(routes);
}

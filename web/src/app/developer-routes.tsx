import { Navigate, useRoutes, type RouteObject } from 'react-router';
import {
  ActivateAccountPage,
  ApiKeysPage,
  AppsPage,
  ChangePasswordPage,
  DashboardPage,
  PlansPage,
  ReceiptPage,
  ReceiptsPage,
  RequestLogPage,
  RequestPasswordResetPage,
  ResetPasswordPage,
  SigninPage,
  SignupPage,
  WebhooksPage,
} from '../features/developer';
import { CurrentAppRoute } from '../features/developer/components/CurrentAppRoute';
import { DeveloperLayout } from '../layouts/DeveloperLayout';
import { NotFoundPage } from './NotFoundPage';
import { RedirectSignedInDeveloper, RequireDeveloper } from './route-guards';
import { paths } from '../lib/paths';

// Below /developer: the portal's routes come with its chunk, so that `/` carries neither them nor their guards.
export const routes: RouteObject[] = [
  {
    path: 'signin',
    element: (
      <RedirectSignedInDeveloper>
        <SigninPage />
      </RedirectSignedInDeveloper>
    ),
  },
  {
    path: 'signup',
    element: (
      <RedirectSignedInDeveloper>
        <SignupPage />
      </RedirectSignedInDeveloper>
    ),
  },
  { path: 'activate_account/:accountId', element: <ActivateAccountPage /> },
  { path: 'request_password_reset', element: <RequestPasswordResetPage /> },
  { path: 'reset_password/:code', element: <ResetPasswordPage /> },
  {
    element: (
      <RequireDeveloper>
        <DeveloperLayout />
      </RequireDeveloper>
    ),
    children: [
      { index: true, element: <Navigate to={paths.developer.apps} replace /> },
      { path: 'apps', element: <AppsPage /> },
      { path: 'home', element: <CurrentAppRoute page={DashboardPage} /> },
      { path: 'api', element: <CurrentAppRoute page={ApiKeysPage} /> },
      { path: 'request', element: <CurrentAppRoute page={RequestLogPage} /> },
      { path: 'plans', element: <CurrentAppRoute page={PlansPage} /> },
      { path: 'webhooks', element: <CurrentAppRoute page={WebhooksPage} /> },
      { path: 'receipts', element: <ReceiptsPage /> },
      { path: 'receipts/:reference', element: <ReceiptPage /> },
      { path: 'change_password', element: <ChangePasswordPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export function DeveloperRoutes() {
  return useRoutes(routes);
}

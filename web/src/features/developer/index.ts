// The developer portal, loaded on first visit so that public visitors do not download it.
export { ActivateAccountPage } from './pages/ActivateAccountPage';
export { ApiKeysPage } from './pages/ApiKeysPage';
export { AppsPage } from './pages/AppsPage';
export { ChangePasswordPage } from './pages/ChangePasswordPage';
export { DashboardPage } from './pages/DashboardPage';
export { PlansPage } from './pages/PlansPage';
export { ReceiptPage } from './pages/ReceiptPage';
export { ReceiptsPage } from './pages/ReceiptsPage';
export { RequestLogPage } from './pages/RequestLogPage';
export { RequestPasswordResetPage } from './pages/RequestPasswordResetPage';
export { ResetPasswordPage } from './pages/ResetPasswordPage';
export { SigninPage } from './pages/SigninPage';
export { SignupPage } from './pages/SignupPage';
export { WebhooksPage } from './pages/WebhooksPage';

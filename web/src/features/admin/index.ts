// The admin console, loaded on first visit so that public visitors and developers do not download it.
export { ActivityPage } from './pages/ActivityPage';
export { DeskPage } from './pages/DeskPage';
export { AdminLoginPage } from './pages/AdminLoginPage';
export { ApiWaitListPage } from './pages/ApiWaitListPage';
export { AppsPage } from './pages/AppsPage';
export { ChangePasswordPage } from './pages/ChangePasswordPage';
export { EmailsPage } from './pages/EmailsPage';
export { PlansPage } from './pages/PlansPage';
export { RatesPage } from './pages/RatesPage';
export { SubscriptionsPage } from './pages/SubscriptionsPage';
export { TransactionsPage } from './pages/TransactionsPage';
export { UsersPage } from './pages/UsersPage';

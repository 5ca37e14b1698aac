import { isValidElement, lazy, Suspense, useState, type ComponentType } from 'react';
import { matchRoutes, useParams, useRoutes, type RouteObject } from 'react-router';
import { pairOfSlugs, pairPath } from '@afrofx/shared';
import { Spinner } from '../components/Spinner';
import { HomePage } from '../features/public/pages/HomePage';
import { PublicLayout } from '../layouts/PublicLayout';
import { NotFoundPage } from './NotFoundPage';

/**
 * A page whose code loads on first use: `/` carries only the home page, and the developer portal and the admin
 * console are chunks of their own, each with its routes. A public page waits inside the site's layout, so the header
 * stays while it loads. `preload` loads the code ahead: a page the server rendered must have it before the app
 * hydrates, or the page would wait, and be drawn again, once it arrived (see preloadPage).
 */
function lazyPage<M, P extends object>(load: () => Promise<M>, pick: (module: M) => ComponentType<P>) {
  let loaded: ComponentType<P> | undefined;
  const preload = async () => (loaded = pick(await load()));
  const Lazy = lazy(async () => ({ default: await preload() }));
  function LazyPage(props: P) {
    // Chosen once per mount: switching from the lazy component to the loaded one would mount the page again.
    const [Page] = useState<ComponentType<P>>(() => loaded ?? Lazy);
    return (
      <Suspense fallback={<PageLoading />}>
        <Page {...props} />
      </Suspense>
    );
  }
  return Object.assign(LazyPage, { preload });
}

const DeveloperPortal = lazyPage(
  () => import('./developer-routes'),
  (portal) => portal.DeveloperRoutes,
);
const AdminConsole = lazyPage(
  () => import('./admin-routes'),
  (admin) => admin.AdminRoutes,
);

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
const AlertConfirmationPage = lazyPage(
  () => import('../features/public/pages/AlertConfirmationPage'),
  (page) => page.AlertConfirmationPage,
);
const ManageAlertsPage = lazyPage(
  () => import('../features/public/pages/ManageAlertsPage'),
  (page) => page.ManageAlertsPage,
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

/** /rates/:base/:asset, the URL the server renders with the pair's rates (server/src/modules/site/public-pages.ts). */
function PairPage() {
  const { base = '', asset = '' } = useParams();
  const pair = pairOfSlugs(base, asset);
  // Keyed by the pair, so that going from one pair's page to another opens the board on the new base.
  return pair ? <HomePage key={pairPath(pair)} pair={pair} /> : <NotFoundPage />;
}

const routes: RouteObject[] = [
  { path: '/admin/*', element: <AdminConsole /> },
  { path: '/developer/*', element: <DeveloperPortal /> },
  {
    element: <PublicLayout />,
    children: [
      { index: true, element: <HomePage /> },
      { path: 'rates/:base/:asset', element: <PairPage /> },
      { path: 'api', element: <ApiPage /> },
      { path: 'rate_calculator', element: <RateCalculatorPage /> },
      { path: 'rate_history', element: <RateHistoryPage /> },
      { path: 'confirmation/:id', element: <ConfirmationPage /> },
      { path: 'unsubscribe/:token', element: <UnsubscribePage /> },
      { path: 'alerts/confirm/:token', element: <AlertConfirmationPage /> },
      { path: 'alerts/manage/:token', element: <ManageAlertsPage /> },
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

/** Loads the code of the lazy pages that `pathname` shows, so that they render at once. */
export async function preloadPage(pathname: string): Promise<void> {
  const pages = (matchRoutes(routes, pathname) ?? []).map(({ route }) =>
    isValidElement(route.element) ? (route.element.type as { preload?: () => Promise<unknown> }) : {},
  );
  await Promise.all(pages.map((page) => page.preload?.()));
}

export function AppRoutes() {
  return useRoutes(routes);
}

import type { ComponentType } from 'react';
import { Navigate } from 'react-router';
import { useCurrentApp, type CurrentApp } from '../current-app';
import { paths } from '../../../lib/paths';

/** Pages about one app need a current app; without one the developer picks it first. */
export function CurrentAppRoute({ page: Page }: { page: ComponentType<{ app: CurrentApp }> }) {
  const app = useCurrentApp();
  // Keyed by app, so switching apps starts the page afresh.
  return app ? <Page key={app._id} app={app} /> : <Navigate to={paths.developer.apps} replace />;
}

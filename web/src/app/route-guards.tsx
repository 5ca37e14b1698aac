import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { readAdminSession, readDeveloperSession } from '../lib/session';
import { paths } from '../lib/paths';

/** Admin pages need a stored admin session; without one the visitor signs in first. */
export function RequireAdmin({ children }: { children: ReactNode }) {
  return readAdminSession() ? children : <Navigate to={paths.admin.login} replace />;
}

/** A signed-in admin has no use for the sign-in page. */
export function RedirectSignedInAdmin({ children }: { children: ReactNode }) {
  return readAdminSession() ? <Navigate to={paths.admin.emails} replace /> : children;
}

/** SPEC §2: a protected developer route without a stored session goes to the sign-in page. */
export function RequireDeveloper({ children }: { children: ReactNode }) {
  return readDeveloperSession() ? children : <Navigate to={paths.developer.signin} replace />;
}

/** SPEC §2: sign-in and sign-up with a stored session go to the app list. */
export function RedirectSignedInDeveloper({ children }: { children: ReactNode }) {
  return readDeveloperSession() ? <Navigate to={paths.developer.apps} replace /> : children;
}

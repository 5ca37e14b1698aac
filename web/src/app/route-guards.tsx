import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { readAdminSession } from '../lib/session';

/** Admin pages need a stored admin session; without one the visitor signs in first. */
export function RequireAdmin({ children }: { children: ReactNode }) {
  return readAdminSession() ? children : <Navigate to="/admin/login" replace />;
}

/** A signed-in admin has no use for the sign-in page. */
export function RedirectSignedInAdmin({ children }: { children: ReactNode }) {
  return readAdminSession() ? <Navigate to="/admin/emails" replace /> : children;
}

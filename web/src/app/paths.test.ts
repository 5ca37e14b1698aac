import { matchRoutes, type RouteObject } from 'react-router';
import { paths } from '../lib/paths';
import { routes as adminRoutes } from './admin-routes';
import { routes as developerRoutes } from './developer-routes';

/** The route a path lands on inside a console mounted at `mount`, or undefined for the not-found page. */
function landing(routes: RouteObject[], mount: string, path: string): string | undefined {
  const route = matchRoutes(routes, path.slice(mount.length))?.at(-1)?.route;
  return route && route.path !== '*' ? (route.path ?? 'index') : undefined;
}

describe('the typed paths registry', () => {
  it.each(Object.values(paths.admin))('%s opens a page of the admin console', (path) => {
    expect(landing(adminRoutes, '/admin', path)).toBe(path.slice('/admin/'.length));
  });

  it.each(Object.values(paths.developer))('%s opens a page of the developer portal', (path) => {
    expect(landing(developerRoutes, '/developer', path)).toBe(path.slice('/developer/'.length));
  });
});

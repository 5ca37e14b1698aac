import type { AnchorHTMLAttributes, MouseEvent, Ref } from 'react';
import { useHref, useLinkClickHandler, useLocation, useResolvedPath, type To } from 'react-router';

export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  to: To;
  replace?: boolean;
  ref?: Ref<HTMLAnchorElement>;
}

/**
 * A link inside the app, built on the hooks React Router offers for custom links. React Router's `<Link>` and
 * `<NavLink>` also carry route-module prefetching, URL masks and view transitions for its framework and data modes,
 * which this app never uses: about 2 kB of compressed script for every visitor of `/` (issue 11, point 2).
 */
export function Link({ to, replace, onClick, target, ...rest }: LinkProps) {
  const href = useHref(to);
  const navigate = useLinkClickHandler<HTMLAnchorElement>(to, { replace, target });
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (!event.defaultPrevented) navigate(event);
  };
  return <a {...rest} href={href} target={target} onClick={handleClick} />;
}

export interface NavLinkProps extends Omit<LinkProps, 'className'> {
  /** Active only on this exact path, not on the paths below it. */
  end?: boolean;
  className?: string | ((state: { isActive: boolean }) => string);
}

/** A link that knows whether it points at the current page (`aria-current="page"` and its `isActive` classes). */
export function NavLink({ to, end = false, className, ...rest }: NavLinkProps) {
  const target = useResolvedPath(to).pathname.toLowerCase();
  const current = useLocation().pathname.toLowerCase();
  // As React Router's NavLink: `/developer` is active on `/developer/apps` unless `end`, and never on `/developers`.
  const slashAt = target !== '/' && target.endsWith('/') ? target.length - 1 : target.length;
  const isActive =
    current === target || (!end && current.startsWith(target) && current.charAt(slashAt) === '/');
  return (
    <Link
      {...rest}
      to={to}
      aria-current={isActive ? 'page' : undefined}
      className={typeof className === 'function' ? className({ isActive }) : className}
    />
  );
}

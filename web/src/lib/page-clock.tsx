import { createContext, use, useSyncExternalStore, type ReactNode } from 'react';

/** The moment and zone a server-rendered page was drawn with; null is the viewer's own clock and zone. */
export interface PageClock {
  now: string;
  timeZone: string;
  /** The site's address the page was drawn for (PUBLIC_URL); the browser's own once hydrated. */
  origin?: string;
}

const PageClockContext = createContext<PageClock | null>(null);

const unchanging = () => () => {};

/**
 * The server rendered the page at its time in its zone. Hydration must draw the same markup, so the render
 * that hydrates uses that clock (React reads the server snapshot then); the next one, right after, uses the viewer's
 * own time and zone.
 */
export function PageClockProvider({ seed, children }: { seed: PageClock | null; children: ReactNode }) {
  const clock = useSyncExternalStore(
    unchanging,
    () => null,
    () => seed,
  );
  return <PageClockContext value={clock}>{children}</PageClockContext>;
}

/** The moment "today" is judged against, and the zone times are written in (undefined: the viewer's). */
export function usePageClock(): { now: Date; timeZone: string | undefined } {
  const clock = use(PageClockContext);
  return clock
    ? { now: new Date(clock.now), timeZone: clock.timeZone }
    : { now: new Date(), timeZone: undefined };
}

/** The site's address as examples print it: the server's PUBLIC_URL while hydrating, then the address bar's. */
export function usePageOrigin(): string {
  const clock = use(PageClockContext);
  return clock?.origin ?? (typeof window === 'undefined' ? '' : window.location.origin);
}

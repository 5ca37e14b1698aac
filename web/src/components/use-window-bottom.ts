import { useEffect, useEffectEvent } from 'react';

/** How close to the bottom (px) counts as having reached it. */
const BOTTOM_THRESHOLD = 120;

/**
 * SPEC §2: lists load more when the window reaches the page bottom. The check also runs whenever
 * `enabled` or `version` changes, so a page that does not yet fill the window keeps loading.
 */
export function useWindowBottom(onBottom: () => void, enabled: boolean, version: number): void {
  const reached = useEffectEvent(onBottom);

  useEffect(() => {
    if (!enabled) return;
    const check = () => {
      const bottom = window.innerHeight + window.scrollY;
      if (bottom >= document.documentElement.scrollHeight - BOTTOM_THRESHOLD) reached();
    };
    check();
    window.addEventListener('scroll', check, { passive: true });
    window.addEventListener('resize', check);
    return () => {
      window.removeEventListener('scroll', check);
      window.removeEventListener('resize', check);
    };
  }, [enabled, version]);
}

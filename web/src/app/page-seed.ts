import { PAGE_SEED_TIME_ZONE, type PageSeed } from '@afrofx/shared';
import { seedSiteContact } from '../api/site-api';
import { seedPageData } from '../features/public/public-api';
import type { PageClock } from '../lib/page-clock';
import { createStore } from '../store/store';

/** The store and clock a server-rendered page was drawn from, the same on the server and in the browser. */
export function seededApp(seed: PageSeed): { store: ReturnType<typeof createStore>; clock: PageClock } {
  const store = createStore();
  store.dispatch(seedPageData(seed));
  if (seed.siteContact) store.dispatch(seedSiteContact(seed.siteContact));
  return {
    store,
    clock: { now: seed.renderedAt, timeZone: PAGE_SEED_TIME_ZONE, origin: seed.origin },
  };
}

// The app, started by main.tsx once the browser has painted the page.
import { PAGE_SEED_ID, type PageSeed } from '@afrofx/shared';
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/App';
import { seededApp } from './app/page-seed';
import { preloadPage } from './app/router';
import { createStore } from './store/store';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element.');

const seedElement = document.getElementById(PAGE_SEED_ID);
if (seedElement?.textContent) {
  // A public page rendered by the server: the app's first render draws the same markup from the same
  // data and clock, and takes the page over without drawing it again.
  const seed = JSON.parse(seedElement.textContent) as PageSeed;
  const { store, clock } = seededApp(seed);
  const hydrate = () =>
    hydrateRoot(
      container,
      <StrictMode>
        <App store={store} clock={clock} />
      </StrictMode>,
    );
  // A lazy page's code first, as the server drew the page whole; should it fail to load, hydration goes ahead and the
  // page waits for its code as on a first visit in the app.
  void preloadPage(window.location.pathname)
    .catch(() => undefined)
    .then(hydrate);
} else {
  createRoot(container).render(
    <StrictMode>
      <App store={createStore()} />
    </StrictMode>,
  );
}

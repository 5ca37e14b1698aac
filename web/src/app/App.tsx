import { Provider } from 'react-redux';
import { BrowserRouter, StaticRouter } from 'react-router';
import { DemoBanner } from '../components/DemoBanner';
import { Toaster } from '../components/Toaster';
import { PageClockProvider, type PageClock } from '../lib/page-clock';
import { AppRoutes } from './router';
import type { AppStore } from '../store/store';

interface AppProps {
  store: AppStore;
  /** The URL the server renders; in the browser, the address bar's. */
  location?: string;
  /** The clock a server-rendered page was drawn with (see PageClockProvider); none in a page the browser draws. */
  clock?: PageClock | null;
}

export function App({ store, location, clock = null }: AppProps) {
  const content = (
    <>
      <DemoBanner />
      <AppRoutes />
      <Toaster />
    </>
  );
  return (
    <Provider store={store}>
      <PageClockProvider seed={clock}>
        {location === undefined ? (
          <BrowserRouter>{content}</BrowserRouter>
        ) : (
          <StaticRouter location={location}>{content}</StaticRouter>
        )}
      </PageClockProvider>
    </Provider>
  );
}

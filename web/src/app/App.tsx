import { Provider } from 'react-redux';
import { BrowserRouter } from 'react-router';
import { DemoBanner } from '../components/DemoBanner';
import { Toaster } from '../components/Toaster';
import { AppRoutes } from './router';
import type { AppStore } from '../store/store';

export function App({ store }: { store: AppStore }) {
  return (
    <Provider store={store}>
      <BrowserRouter>
        <DemoBanner />
        <AppRoutes />
        <Toaster />
      </BrowserRouter>
    </Provider>
  );
}

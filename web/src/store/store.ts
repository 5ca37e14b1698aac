import { configureStore } from '@reduxjs/toolkit';
import { api } from '../api/base-api';

export function createStore() {
  const store = configureStore({
    reducer: { [api.reducerPath]: api.reducer },
    middleware: (getDefaultMiddleware) => getDefaultMiddleware().concat(api.middleware),
  });
  return store;
}

export type AppStore = ReturnType<typeof createStore>;

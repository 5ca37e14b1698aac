import { APP_NAME } from '@afrofx/shared';
import { useSyncExternalStore } from 'react';

/** SPEC §3: the current app is kept in session storage beside the session. */
const CURRENT_APP_KEY = `${APP_NAME}-current-app`;

export interface CurrentApp {
  _id: string;
  name: string;
}

const listeners = new Set<() => void>();
let cachedRaw: string | null = null;
let cachedApp: CurrentApp | null = null;

export function readCurrentApp(): CurrentApp | null {
  const raw = window.sessionStorage.getItem(CURRENT_APP_KEY);
  if (raw === cachedRaw) return cachedApp;
  cachedRaw = raw;
  try {
    const parsed = raw ? (JSON.parse(raw) as Partial<CurrentApp> | null) : null;
    cachedApp =
      parsed && typeof parsed._id === 'string' && typeof parsed.name === 'string'
        ? { _id: parsed._id, name: parsed.name }
        : null;
  } catch {
    cachedApp = null;
  }
  return cachedApp;
}

export function saveCurrentApp(app: CurrentApp): void {
  window.sessionStorage.setItem(CURRENT_APP_KEY, JSON.stringify({ _id: app._id, name: app.name }));
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The app the developer picked on /developer/apps, or null before they pick one. */
export function useCurrentApp(): CurrentApp | null {
  return useSyncExternalStore(subscribe, readCurrentApp);
}

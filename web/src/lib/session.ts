import { APP_NAME } from '@afrofx/shared';

/** SPEC §3: the session lives in browser session storage under the application name. */
export const DEVELOPER_SESSION_KEY = APP_NAME;
export const ADMIN_SESSION_KEY = `${APP_NAME}-admin`;

interface AdminSessionData {
  token: string;
  userData: { email: string };
}

/** SPEC §3: the developer session is the token plus the name used in the greeting. */
interface DeveloperSessionData {
  token: string;
  userData: { first_name: string; last_name: string };
}

interface StoredSession {
  token: string;
}

function readSession<T extends StoredSession>(key: string): T | null {
  const raw = window.sessionStorage.getItem(key);
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as Partial<T> | null;
    return parsed && typeof parsed.token === 'string' && parsed.token ? (parsed as T) : null;
  } catch {
    return null;
  }
}

export function readAdminSession(): AdminSessionData | null {
  return readSession<AdminSessionData>(ADMIN_SESSION_KEY);
}

export function saveAdminSession(session: AdminSessionData): void {
  window.sessionStorage.setItem(ADMIN_SESSION_KEY, JSON.stringify(session));
}

export function clearAdminSession(): void {
  window.sessionStorage.removeItem(ADMIN_SESSION_KEY);
}

export function readDeveloperSession(): DeveloperSessionData | null {
  return readSession<DeveloperSessionData>(DEVELOPER_SESSION_KEY);
}

export function saveDeveloperSession(session: DeveloperSessionData): void {
  window.sessionStorage.setItem(DEVELOPER_SESSION_KEY, JSON.stringify(session));
}

/** SPEC §2: logging out of the developer portal clears the session storage. */
export function clearSessionStorage(): void {
  window.sessionStorage.clear();
}

/** Admin calls carry the admin token; every other call carries the developer token. */
export function tokenForUrl(url: string): string | null {
  const key = url.replace(/^\/+/, '').startsWith('admin/') ? ADMIN_SESSION_KEY : DEVELOPER_SESSION_KEY;
  return readSession(key)?.token ?? null;
}

/** SPEC §4 and §8: a 401 signs the visitor out by clearing session storage and reloading. */
export function clearSessionsAndReload(): void {
  window.sessionStorage.clear();
  window.location.reload();
}

import { APP_NAME } from '@afrofx/shared';

/**
 * The session itself is an httpOnly cookie the server sets (docs/hardening.md): script never sees the token, and
 * every tab shares it. The browser keeps only what the console shows (the greeting), in localStorage so that a new
 * tab and a reload show it too; its presence is what tells the route guards someone is signed in.
 */
export const DEVELOPER_SESSION_KEY = APP_NAME;
export const ADMIN_SESSION_KEY = `${APP_NAME}-admin`;

interface AdminSessionData {
  userData: { email: string };
}

/** SPEC §3: the name used in the greeting. */
interface DeveloperSessionData {
  userData: { first_name: string; last_name: string };
}

function readSession<T extends { userData: object }>(key: string): T | null {
  const raw = window.localStorage.getItem(key);
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as Partial<T> | null;
    return parsed && typeof parsed.userData === 'object' && parsed.userData ? (parsed as T) : null;
  } catch {
    return null;
  }
}

export function readAdminSession(): AdminSessionData | null {
  return readSession<AdminSessionData>(ADMIN_SESSION_KEY);
}

export function saveAdminSession(session: AdminSessionData): void {
  window.localStorage.setItem(ADMIN_SESSION_KEY, JSON.stringify(session));
}

export function clearAdminSession(): void {
  window.localStorage.removeItem(ADMIN_SESSION_KEY);
}

export function readDeveloperSession(): DeveloperSessionData | null {
  return readSession<DeveloperSessionData>(DEVELOPER_SESSION_KEY);
}

export function saveDeveloperSession(session: DeveloperSessionData): void {
  window.localStorage.setItem(DEVELOPER_SESSION_KEY, JSON.stringify(session));
}

/** SPEC §2: logging out of the developer portal forgets the account's data and the tab's selections. */
export function clearDeveloperSession(): void {
  window.localStorage.removeItem(DEVELOPER_SESSION_KEY);
  window.sessionStorage.clear();
}

/** Whether the console a call belongs to (admin calls are under `admin/`) believes it is signed in. */
export function signedInForUrl(url: string): boolean {
  return url.replace(/^\/+/, '').startsWith('admin/')
    ? readAdminSession() !== null
    : readDeveloperSession() !== null;
}

/** SPEC §4 and §8: a 401 signs the visitor out of that console and reloads. */
export function clearSessionAndReload(url: string): void {
  if (url.replace(/^\/+/, '').startsWith('admin/')) clearAdminSession();
  else clearDeveloperSession();
  window.location.reload();
}

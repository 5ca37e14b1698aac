import { useSyncExternalStore } from 'react';

export type ToastTone = 'success' | 'error';

interface ToastItem {
  id: number;
  message: string;
  tone: ToastTone;
}

const DISMISS_AFTER_MS = 5000;

let items: ToastItem[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function emit(): void {
  listeners.forEach((listener) => listener());
}

export function dismissToast(id: number): void {
  items = items.filter((item) => item.id !== id);
  emit();
}

/** A step that succeeded makes its earlier refusals stale (a failed sign-in's toast over "Check your inbox"). */
export function dismissErrorToasts(): void {
  items = items.filter((item) => item.tone !== 'error');
  emit();
}

export function showToast(message: string, tone: ToastTone = 'success'): void {
  const id = nextId++;
  items = [...items, { id, message, tone }];
  emit();
  window.setTimeout(() => dismissToast(id), DISMISS_AFTER_MS);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const NO_TOASTS: ToastItem[] = [];

export function useToasts(): ToastItem[] {
  // A page rendered on the server, and hydrated, starts without toasts.
  return useSyncExternalStore(
    subscribe,
    () => items,
    () => NO_TOASTS,
  );
}

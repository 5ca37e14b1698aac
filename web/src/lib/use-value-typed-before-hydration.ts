import { useEffect, useRef, useSyncExternalStore, type ChangeEvent } from 'react';

type Field = HTMLInputElement | HTMLSelectElement;

const unchanging = () => () => {};

/**
 * A public page is drawn by the server and taken over by the app a moment later. A visitor who types an amount, or
 * picks a currency, in that moment sees their value on screen, but React keeps the state it drew the page from and
 * replays no change event: the page would go on answering for the value it was drawn with. Once the page is taken
 * over, a controlled field whose value on screen differs from its state hands that value to its own `onChange`, as
 * if chosen now. Only a field drawn by the server does: one the app draws itself shows its state (or, for a select
 * whose options are still loading, nothing yet), and its state stands.
 */
export function useValueTypedBeforeHydration<E extends Field>(
  value: unknown,
  onChange: ((event: ChangeEvent<E>) => void) | undefined,
) {
  const ref = useRef<E>(null);
  // React reads the server snapshot only in the render that hydrates.
  const hydrating = useSyncExternalStore(
    unchanging,
    () => false,
    () => true,
  );
  const drawn = useRef({ hydrating, value, onChange });
  useEffect(() => {
    const field = ref.current;
    const { hydrating: wasHydrated, value: drawnValue, onChange: handler } = drawn.current;
    if (!wasHydrated || !field || !handler || drawnValue === undefined || drawnValue === null) return;
    if (field.value === String(drawnValue)) return;
    handler({ target: field, currentTarget: field } as ChangeEvent<E>);
  }, []);
  return ref;
}

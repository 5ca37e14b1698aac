import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';

/**
 * A panel opened by a button on small screens (the consoles' sidebar drawer, the site's menu). It belongs to
 * the page it was opened on, so following a link closes it; so do a tap or click outside the panel and its
 * button, and Escape (SPEC §2).
 */
export function usePagePanel<Panel extends HTMLElement, Toggle extends HTMLElement = HTMLButtonElement>() {
  const { pathname } = useLocation();
  const [openOnPath, setOpenOnPath] = useState<string | null>(null);
  const open = openOnPath === pathname;
  const panelRef = useRef<Panel>(null);
  const buttonRef = useRef<Toggle>(null);

  useEffect(() => {
    if (!open) return;
    // pointerdown covers a finger as well as a mouse, and fires before the tapped element acts.
    const onPointerDown = (event: Event) => {
      const target = event.target as Node;
      if (panelRef.current?.contains(target) || buttonRef.current?.contains(target)) return;
      setOpenOnPath(null);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpenOnPath(null);
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);

  return {
    open,
    toggle: () => setOpenOnPath(open ? null : pathname),
    panelRef,
    buttonRef,
  };
}

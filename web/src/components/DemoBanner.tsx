import { useIsDemo } from '../api/site-api';

/** On every page of a demo install (sandbox payments), so nobody mistakes it for the real service. */
export function DemoBanner() {
  if (!useIsDemo()) return null;
  return (
    <p
      role="note"
      className="bg-gold-400 px-4 py-1.5 text-center text-sm font-semibold text-brand-950"
      data-testid="demo-banner"
    >
      Demo: payments are simulated by a sandbox provider and no money moves.
    </p>
  );
}

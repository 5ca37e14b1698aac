// DESIGN §4 payments: the checkout prices and opens an order (checkout.ts); settlement verifies it with the provider
// server to server and completes it once, whichever path learns of the payment first (settlement.ts).
import { createCheckout, type CheckoutDeps } from './checkout';
import { createSettlement, type SettlementDeps } from './settlement';

export function createPaymentsService(deps: SettlementDeps & Omit<CheckoutDeps, 'reverify' | 'fail'>) {
  const { reverify, fail, ...settlement } = createSettlement(deps);
  return { ...createCheckout({ ...deps, reverify, fail }), ...settlement };
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;

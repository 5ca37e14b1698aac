import type {
  CheckoutResult,
  CreateTransactionInput,
  PaymentCheckout,
  PaymentCurrency,
  Purchase,
} from '@afrofx/shared';

/** SPEC §8: what the Plans tab says when the provider's checkout script cannot be loaded. */
export const SCRIPT_LOAD_ERROR = 'Unable to load Basqet pay modal';

const loadedScripts = new Map<string, Promise<void>>();

/**
 * Loads the provider's checkout script once per address; a failed load is forgotten so the next purchase
 * tries again. Rejects with SPEC §8's message.
 */
export function loadCheckoutScript(src: string): Promise<void> {
  const known = loadedScripts.get(src);
  if (known) return known;
  const loading = new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    script.addEventListener('load', () => {
      if (window.BasqetCheckout) resolve();
      else reject(new Error(SCRIPT_LOAD_ERROR));
    });
    script.addEventListener('error', () => {
      script.remove();
      reject(new Error(SCRIPT_LOAD_ERROR));
    });
    document.head.append(script);
  });
  loadedScripts.set(src, loading);
  loading.catch(() => loadedScripts.delete(src));
  return loading;
}

/** How the provider's modal ended: paid (with its success result), or closed without payment. */
export type ModalOutcome = { paid: true; result: CheckoutResult } | { paid: false; result: CheckoutResult };

/**
 * Opens the provider's modal for the server's order. SPEC §4: the success callback runs once only; a promise
 * settles once, so a modal that calls back twice (or calls back and then closes) still gives one outcome.
 */
export function payInModal(checkout: PaymentCheckout): Promise<ModalOutcome> {
  return new Promise((resolve, reject) => {
    const modal = window.BasqetCheckout;
    if (!modal) {
      reject(new Error(SCRIPT_LOAD_ERROR));
      return;
    }
    modal.open({
      publicKey: checkout.publicKey,
      amount: checkout.amount,
      currency: checkout.currency,
      reference: checkout.reference,
      customer: checkout.customer,
      narration: checkout.narration,
      onSuccess: (result) => resolve({ paid: true, result }),
      onClose: (result) => resolve({ paid: false, result }),
    });
  });
}

/** SPEC §7 create_transaction body: plan, currency, isUpcoming, currentRate (NGN only) and the success result. */
export function transactionBody(
  checkout: PaymentCheckout,
  result: CheckoutResult,
  usdRate: number | undefined,
): CreateTransactionInput {
  return {
    plan: checkout.plan._id,
    currency: checkout.currency,
    isUpcoming: checkout.isUpcoming,
    ...(checkout.currency === 'NGN' && usdRate !== undefined ? { currentRate: usdRate } : {}),
    reference: result.reference,
    ...(result.status ? { status: result.status } : {}),
    ...(result.id ? { id: result.id } : {}),
  };
}

/** The calls a purchase makes, each rejecting with the server's message. */
export interface PurchaseCalls {
  initialize: (input: {
    plan: string;
    currency: PaymentCurrency;
    isUpcoming: boolean;
  }) => Promise<PaymentCheckout>;
  complete: (input: CreateTransactionInput) => Promise<{ data: Purchase; message: string }>;
}

export type PurchaseOutcome =
  { kind: 'paid'; message: string; purchase: Purchase } | { kind: 'not-paid'; message: string };

/** Why no plan was bought, from how the modal closed. */
function notPaidMessage(result: CheckoutResult): string {
  switch (result.status.toUpperCase()) {
    case 'DECLINED':
      return 'The payment was declined, so no plan was bought.';
    case 'CANCELLED':
      return 'The payment was cancelled, so no plan was bought.';
    default:
      return 'The payment was not completed, so no plan was bought.';
  }
}

/**
 * SPEC §4, §7: the server makes the order and its price, the provider's modal takes the payment, and the server
 * confirms it before anything is granted. Rejects with the message to show when a step fails.
 */
export async function purchasePlan(
  calls: PurchaseCalls,
  order: { plan: string; currency: PaymentCurrency; isUpcoming: boolean; usdRate: number | undefined },
): Promise<PurchaseOutcome> {
  const checkout = await calls.initialize({
    plan: order.plan,
    currency: order.currency,
    isUpcoming: order.isUpcoming,
  });
  await loadCheckoutScript(checkout.scriptUrl);
  const outcome = await payInModal(checkout);
  if (!outcome.paid) return { kind: 'not-paid', message: notPaidMessage(outcome.result) };
  const { data, message } = await calls.complete(transactionBody(checkout, outcome.result, order.usdRate));
  return { kind: 'paid', message, purchase: data };
}

import {
  planTitle,
  type BasqetSuccess,
  type CreateTransactionInput,
  type InitializedPayment,
  type PaymentCheckout,
  type PaymentCurrency,
  type Purchase,
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
      if (window.payWithBasqet) resolve();
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

/** How the provider's modal ended: paid (with its success response), abandoned, or an error. */
export type ModalOutcome =
  { kind: 'paid'; response: BasqetSuccess } | { kind: 'abandoned' } | { kind: 'error'; type: string };

/**
 * Opens the provider's modal (`payWithBasqet`, with basqet-react's config names) for the server's order, at the
 * amount and currency the server fixed at the provider. SPEC §4: the success callback runs once only; a promise
 * settles once, so a modal that calls back twice (or calls back and then closes) still gives one outcome.
 */
export function payInModal(checkout: PaymentCheckout): Promise<ModalOutcome> {
  return new Promise((resolve, reject) => {
    const payWithBasqet = window.payWithBasqet;
    if (!payWithBasqet) {
      reject(new Error(SCRIPT_LOAD_ERROR));
      return;
    }
    payWithBasqet({
      public_key: checkout.publicKey,
      email: checkout.customer.email,
      amount: checkout.amount,
      currency: checkout.currency,
      metadata: { reference: checkout.reference, transaction_id: checkout.transactionId },
      onSuccess: (response) => resolve({ kind: 'paid', response }),
      onError: (error) => resolve({ kind: 'error', type: error?.type ?? 'unknown' }),
      onAbandoned: () => resolve({ kind: 'abandoned' }),
    });
  });
}

/** SPEC §7 create_transaction body: plan, currency, isUpcoming, currentRate (NGN only) and the success result. */
export function transactionBody(
  checkout: PaymentCheckout,
  response: BasqetSuccess,
  usdRate: number | undefined,
): CreateTransactionInput {
  return {
    plan: checkout.plan._id,
    currency: checkout.currency,
    isUpcoming: checkout.isUpcoming,
    ...(checkout.currency === 'NGN' && usdRate !== undefined ? { currentRate: usdRate } : {}),
    reference: checkout.reference,
    ...(typeof response.status === 'string' ? { status: response.status.slice(0, 40) } : {}),
    ...(typeof response.id === 'string' ? { id: response.id } : {}),
  };
}

/** The calls a purchase makes, each rejecting with the server's message. */
export interface PurchaseCalls {
  initialize: (input: {
    plan: string;
    currency: PaymentCurrency;
    isUpcoming: boolean;
  }) => Promise<InitializedPayment>;
  complete: (input: CreateTransactionInput) => Promise<{ data: Purchase; message: string }>;
}

export type PurchaseOutcome =
  | { kind: 'paid'; message: string; purchase: Purchase }
  | { kind: 'activated'; message: string }
  | { kind: 'not-paid'; message: string };

/** Why no plan was bought, from how the modal ended. */
function notPaidMessage(outcome: Exclude<ModalOutcome, { kind: 'paid' }>): string {
  if (outcome.kind === 'abandoned')
    return 'The payment window was closed before paying, so no plan was bought.';
  return outcome.type === 'declined'
    ? 'The payment was declined, so no plan was bought.'
    : 'The payment did not go through, so no plan was bought.';
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
  // A free plan is active once initialized; there is nothing to pay.
  if ('activated' in checkout)
    return {
      kind: 'activated',
      message: `The ${planTitle(checkout.subscription.plan.name)} is active on this app at no charge: its key can call the API now, up to ${checkout.subscription.limit.toLocaleString('en-US')} calls a month.`,
    };
  await loadCheckoutScript(checkout.scriptUrl);
  const outcome = await payInModal(checkout);
  if (outcome.kind !== 'paid') return { kind: 'not-paid', message: notPaidMessage(outcome) };
  const { data, message } = await calls.complete(transactionBody(checkout, outcome.response, order.usdRate));
  return { kind: 'paid', message, purchase: data };
}

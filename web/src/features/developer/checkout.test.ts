import type { BasqetConfig, BasqetSuccess, PaymentCheckout } from '@afrofx/shared';
import { waitFor } from '@testing-library/react';
import { makeSubscription } from '../../test/developer';
import { loadCheckoutScript, purchasePlan, SCRIPT_LOAD_ERROR, type PurchaseCalls } from './checkout';

let scripts = 0;
/** Each test loads its own script address, as the module remembers the ones it loaded. */
const nextScriptUrl = () => `/sandbox/checkout-${++scripts}.js`;

function checkoutFor(currency: 'USD' | 'NGN', scriptUrl: string): PaymentCheckout {
  return {
    provider: 'sandbox',
    publicKey: 'pk_test_sandbox',
    scriptUrl,
    reference: 'afx_ABCDEFGHIJKLMNOPQRSTUVWX',
    transactionId: 'txn_1',
    amount: currency === 'USD' ? 49.2 : 72815,
    currency,
    customer: { name: 'Ada Okafor', email: 'ada@example.com' },
    narration: 'AfroFX Growth plan for Remit',
    plan: { _id: 'plan-growth', name: 'Growth' },
    isUpcoming: false,
    expiresAt: '2026-03-10T13:00:00.000Z',
  };
}

/** Answers the script's load or error once the purchase has added it to the page. */
async function scriptFires(src: string, event: 'load' | 'error') {
  const script = await waitFor(() => {
    const found = document.head.querySelector<HTMLScriptElement>(`script[src="${src}"]`);
    if (!found) throw new Error(`no script ${src}`);
    return found;
  });
  script.dispatchEvent(new Event(event));
}

/** A stand-in for the provider's modal: `behave` decides what it calls back. */
function provideModal(behave: (config: BasqetConfig) => void) {
  const open = jest.fn(behave);
  window.payWithBasqet = open;
  return open;
}

const success: BasqetSuccess = { id: 'txn_1', status: 'SUCCESSFUL' };

function calls(checkout: PaymentCheckout) {
  const purchase = { transaction: {}, subscription: {} } as never;
  return {
    initialize: jest.fn<ReturnType<PurchaseCalls['initialize']>, Parameters<PurchaseCalls['initialize']>>(
      () => Promise.resolve(checkout),
    ),
    complete: jest.fn<ReturnType<PurchaseCalls['complete']>, Parameters<PurchaseCalls['complete']>>(() =>
      Promise.resolve({ data: purchase, message: 'Payment confirmed. Your Growth plan is active.' }),
    ),
  };
}

afterEach(() => {
  delete window.payWithBasqet;
  document.head.innerHTML = '';
});

describe('loading the checkout script', () => {
  it(`fails with '${SCRIPT_LOAD_ERROR}' when the script cannot be loaded`, async () => {
    const src = nextScriptUrl();
    const loading = loadCheckoutScript(src);
    await scriptFires(src, 'error');
    await expect(loading).rejects.toThrow(SCRIPT_LOAD_ERROR);
  });

  it('fails the same way when the script loads but defines no modal', async () => {
    const src = nextScriptUrl();
    const loading = loadCheckoutScript(src);
    await scriptFires(src, 'load');
    await expect(loading).rejects.toThrow(SCRIPT_LOAD_ERROR);
  });

  it('tries again after a failure, and loads a working script only once', async () => {
    const src = nextScriptUrl();
    const first = loadCheckoutScript(src);
    await scriptFires(src, 'error');
    await expect(first).rejects.toThrow(SCRIPT_LOAD_ERROR);

    const second = loadCheckoutScript(src);
    provideModal(() => undefined);
    await scriptFires(src, 'load');
    await expect(second).resolves.toBeUndefined();
    await expect(loadCheckoutScript(src)).resolves.toBeUndefined();
    expect(document.head.querySelectorAll(`script[src="${src}"]`)).toHaveLength(1);
  });
});

describe('buying a plan', () => {
  it("opens the modal with the server's order and confirms the payment with the SPEC §7 body", async () => {
    const src = nextScriptUrl();
    const checkout = checkoutFor('NGN', src);
    const open = provideModal((options) => options.onSuccess(success));
    const api = calls(checkout);

    const buying = purchasePlan(api, {
      plan: 'plan-growth',
      currency: 'NGN',
      isUpcoming: false,
      usdRate: 1450,
    });
    await scriptFires(src, 'load');
    const outcome = await buying;

    expect(api.initialize).toHaveBeenCalledWith({ plan: 'plan-growth', currency: 'NGN', isUpcoming: false });
    expect(open).toHaveBeenCalledWith(
      expect.objectContaining({
        public_key: 'pk_test_sandbox',
        email: 'ada@example.com',
        amount: 72815,
        currency: 'NGN',
        metadata: { reference: checkout.reference, transaction_id: 'txn_1' },
      }),
    );
    expect(api.complete).toHaveBeenCalledWith({
      plan: 'plan-growth',
      currency: 'NGN',
      isUpcoming: false,
      currentRate: 1450,
      reference: checkout.reference,
      status: 'SUCCESSFUL',
      id: 'txn_1',
    });
    expect(outcome).toEqual(expect.objectContaining({ kind: 'paid' }));
  });

  it('sends no rate with a USD payment, and the upcoming flag the server decided', async () => {
    const src = nextScriptUrl();
    provideModal((options) => options.onSuccess(success));
    const api = calls({ ...checkoutFor('USD', src), isUpcoming: true });

    const buying = purchasePlan(api, {
      plan: 'plan-growth',
      currency: 'USD',
      isUpcoming: false,
      usdRate: 1450,
    });
    await scriptFires(src, 'load');
    await buying;

    expect(api.complete.mock.calls[0]?.[0]).not.toHaveProperty('currentRate');
    expect(api.complete.mock.calls[0]?.[0]).toHaveProperty('isUpcoming', true);
  });

  it('confirms the payment once even when the modal calls back twice and then closes (SPEC §4)', async () => {
    const src = nextScriptUrl();
    provideModal((options) => {
      options.onSuccess(success);
      options.onSuccess(success);
      options.onAbandoned();
    });
    const api = calls(checkoutFor('USD', src));

    const buying = purchasePlan(api, {
      plan: 'plan-growth',
      currency: 'USD',
      isUpcoming: false,
      usdRate: 740,
    });
    await scriptFires(src, 'load');
    const outcome = await buying;

    expect(api.complete).toHaveBeenCalledTimes(1);
    expect(outcome.kind).toBe('paid');
  });

  it.each<[string, (config: BasqetConfig) => void, string]>([
    [
      'declined in the modal (onError)',
      (config) => config.onError!({ type: 'declined' }),
      'The payment was declined, so no plan was bought.',
    ],
    [
      'failing in the modal (onError)',
      (config) => config.onError!({ type: 'network' }),
      'The payment did not go through, so no plan was bought.',
    ],
    [
      'closed before paying (onAbandoned)',
      (config) => config.onAbandoned(),
      'The payment window was closed before paying, so no plan was bought.',
    ],
  ])('buys nothing, and says why, for a payment %s', async (_case, behave, message) => {
    const src = nextScriptUrl();
    provideModal(behave);
    const api = calls(checkoutFor('USD', src));

    const buying = purchasePlan(api, {
      plan: 'plan-growth',
      currency: 'USD',
      isUpcoming: false,
      usdRate: 740,
    });
    await scriptFires(src, 'load');

    await expect(buying).resolves.toEqual({ kind: 'not-paid', message });
    expect(api.complete).not.toHaveBeenCalled();
  });

  it('activates a free plan with no script, no modal and no confirmation', async () => {
    const open = provideModal((options) => options.onSuccess(success));
    const api = calls(checkoutFor('USD', nextScriptUrl()));
    api.initialize.mockResolvedValue({
      activated: true,
      subscription: makeSubscription({ plan: { _id: 'plan-free', name: 'Free' }, limit: 1000, amount: 0 }),
    });
    const outcome = await purchasePlan(api, {
      plan: 'plan-free',
      currency: 'USD',
      isUpcoming: false,
      usdRate: 740,
    });
    expect(outcome).toEqual({
      kind: 'activated',
      message:
        'The Free plan is active on this app at no charge: its key can call the API now, up to 1,000 calls a month.',
    });
    expect(document.head.querySelector('script')).toBeNull();
    expect(open).not.toHaveBeenCalled();
    expect(api.complete).not.toHaveBeenCalled();
  });

  it(`opens no modal and confirms nothing when the script fails to load`, async () => {
    const src = nextScriptUrl();
    const open = provideModal((options) => options.onSuccess(success));
    const api = calls(checkoutFor('USD', src));

    const buying = purchasePlan(api, {
      plan: 'plan-growth',
      currency: 'USD',
      isUpcoming: false,
      usdRate: 740,
    });
    await scriptFires(src, 'error');

    await expect(buying).rejects.toThrow(SCRIPT_LOAD_ERROR);
    expect(open).not.toHaveBeenCalled();
    expect(api.complete).not.toHaveBeenCalled();
  });

  it("passes on the server's refusal to confirm the payment", async () => {
    const src = nextScriptUrl();
    provideModal((options) => options.onSuccess(success));
    const api = calls(checkoutFor('USD', src));
    api.complete.mockRejectedValue({
      status: 402,
      message: 'The payment was not successful at the provider.',
    });

    const buying = purchasePlan(api, {
      plan: 'plan-growth',
      currency: 'USD',
      isUpcoming: false,
      usdRate: 740,
    });
    await scriptFires(src, 'load');

    await expect(buying).rejects.toEqual({
      status: 402,
      message: 'The payment was not successful at the provider.',
    });
  });
});

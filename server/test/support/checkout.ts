// A developer buying a plan through the sandbox checkout, as the portal does: initialize_payment for an app (see
// TestApp.newApp), the sandbox provider's payment, then create_transaction.
import type { Developer } from './developers';
import type { TestApp } from './test-app';

export function sandboxCheckout<Plan extends string>(
  app: () => { t: TestApp; base: string },
  planIds: Record<Plan, string>,
) {
  const as = (d: Developer) => ({ authorization: `Bearer ${d.token}` });
  const order = (plan: Plan) => ({ plan: planIds[plan], currency: 'USD', isUpcoming: false });
  return {
    initialize: (d: Developer, appId: string, plan: Plan) =>
      app().t.app.inject({
        method: 'POST',
        url: `/v1/account/initialize_payment/${appId}`,
        headers: as(d),
        payload: order(plan),
      }),

    async pay(checkout: { transactionId: string; publicKey: string }) {
      const res = await fetch(`${app().base}/sandbox-pay/v1/transaction/${checkout.transactionId}/trigger`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${checkout.publicKey}` },
        body: JSON.stringify({ status: 'SUCCESSFUL' }),
      });
      expect(res.status).toBeLessThan(300);
    },

    confirm: (d: Developer, appId: string, plan: Plan, reference: string) =>
      app().t.app.inject({
        method: 'POST',
        url: `/v1/account/create_transaction/${appId}`,
        headers: as(d),
        payload: { ...order(plan), reference },
      }),
  };
}

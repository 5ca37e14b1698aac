import {
  isUpcomingPurchase,
  type PaymentCurrency,
  type Plan,
  type Purchase,
  type Subscription,
} from '@afrofx/shared';
import { useEffect, useRef, useState } from 'react';
import { errorMessage } from '../../api/error-message';
import { showToast } from '../../lib/toast';
import { purchasePlan, SCRIPT_LOAD_ERROR } from './checkout';
import { useCreateTransactionMutation, useInitializePaymentMutation } from './developer-api';

interface PlanPurchaseOptions {
  appId: string;
  current: Subscription | null | undefined;
  usdRate: number | undefined;
  /**
   * SPEC §4: after a successful payment the subscription is refreshed and the page reloads; the reloaded page says
   * so from the server's receipt of this payment, since a toast would not survive the reload.
   */
  onPurchased: (purchase: Purchase) => Promise<void>;
  /** A free plan started with no payment: the subscription is refreshed, and the page stays to say so. */
  onActivated: () => Promise<void>;
}

/** Buys a plan for the app: the order, the provider's modal, then the server's confirmation. */
export function usePlanPurchase({ appId, current, usdRate, onPurchased, onActivated }: PlanPurchaseOptions) {
  const [initialize] = useInitializePaymentMutation();
  const [complete] = useCreateTransactionMutation();
  const [buyingPlanId, setBuyingPlanId] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [activated, setActivated] = useState<string | null>(null);
  // The Buy button is disabled while its purchase runs, which drops focus to the page: it gets it back after.
  const opener = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (buyingPlanId !== null || !opener.current) return;
    if (opener.current.isConnected) opener.current.focus();
    opener.current = null;
  }, [buyingPlanId]);

  const buy = async (plan: Plan, currency: PaymentCurrency) => {
    // An NGN price needs the dollar rate; a USD one does not.
    if (buyingPlanId || (currency === 'NGN' && usdRate === undefined)) return;
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setBuyingPlanId(plan._id);
    setProblem(null);
    setActivated(null);
    try {
      const outcome = await purchasePlan(
        {
          initialize: async (input) => (await initialize({ appId, ...input }).unwrap()).data,
          complete: (input) => complete({ appId, ...input }).unwrap(),
        },
        { plan: plan._id, currency, isUpcoming: isUpcomingPurchase(current), usdRate },
      );
      if (outcome.kind === 'paid') {
        await onPurchased(outcome.purchase);
        return;
      }
      if (outcome.kind === 'activated') {
        showToast(outcome.message, 'success');
        setActivated(outcome.message);
        await onActivated();
      } else setProblem(outcome.message);
    } catch (error) {
      // Failed calls are toasted by the API layer; the script is not a call, so its failure is toasted here.
      const message = errorMessage(error);
      if (message === SCRIPT_LOAD_ERROR) showToast(message, 'error');
      setProblem(message);
    }
    setBuyingPlanId(null);
  };

  return { buy, buyingPlanId, problem, activated };
}

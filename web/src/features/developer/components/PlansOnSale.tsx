import {
  canBuyPlan,
  formatDateTime,
  formatNumber,
  isUpcomingPurchase,
  planPrice,
  prorateUpgrade,
  TERM_MONTHS,
  UPGRADE_WINDOW_DAYS,
  type PaymentCurrency,
  type Plan,
  type Subscription,
} from '@afrofx/shared';
import { useState } from 'react';
import { Button } from '../../../components/Button';
import { Notice } from '../../../components/Notice';
import { PlansGrid } from '../../../components/PlansGrid';
import { SegmentedControl } from '../../../components/SegmentedControl';

const currencies = [
  { value: 'USD', label: 'Pay in USD' },
  { value: 'NGN', label: 'Pay in NGN' },
] as const satisfies ReadonlyArray<{ value: PaymentCurrency; label: string }>;

const sign: Record<PaymentCurrency, string> = { USD: '$', NGN: '₦' };

interface PlansOnSaleProps {
  plans: ReadonlyArray<Plan> | undefined;
  isLoading: boolean;
  error: string | null;
  onRetry: () => void;
  current: Subscription | null | undefined;
  upcoming: Subscription | null | undefined;
  /** The cash market's dollar buy rate; undefined while it loads. */
  usdRate: number | undefined;
  /** The plan whose purchase is under way, if any. */
  buyingPlanId: string | null;
  onBuy: (plan: Plan, currency: PaymentCurrency) => void;
  /** Why the last purchase bought nothing. */
  problem: string | null;
  /** What the last free activation started, when it did. */
  activated?: string | null;
}

/** The Plans tab: the plans on sale, their price in the chosen currency, and the SPEC §4 rule on buying. */
export function PlansOnSale({
  plans,
  isLoading,
  error,
  onRetry,
  current,
  upcoming,
  usdRate,
  buyingPlanId,
  onBuy,
  problem,
  activated = null,
}: PlansOnSaleProps) {
  const [currency, setCurrency] = useState<PaymentCurrency>('USD');
  const canBuy = canBuyPlan(current, upcoming);
  const startsLater = canBuy && isUpcomingPurchase(current);
  const priceKnown = currency === 'USD' || usdRate !== undefined;

  const price = (plan: Plan) =>
    `${sign[currency]}${formatNumber(planPrice(plan.amount, currency, usdRate ?? 0))}`;
  // A dearer plan replaces the active one now, its unused term credited (the server computes the same).
  const upgradeTo = (plan: Plan) =>
    !canBuy && !upcoming && current?.status === 'active' && plan.amount > 0
      ? prorateUpgrade(
          {
            planId: current.plan._id,
            amount: current.amount ?? 0,
            startsAt: current.startsAt,
            expireAt: current.expireAt,
          },
          plan,
        )
      : null;
  const anyUpgrade = plans?.some((plan) => upgradeTo(plan)?.kind === 'upgrade') ?? false;
  const ended = !current || current.status === 'expired' || current.status === 'upgraded';
  const running = Boolean(upcoming || !ended);
  const dollars = (cents: number) => `$${formatNumber(cents / 100)}`;

  return (
    <div className="space-y-6">
      {problem && (
        <Notice tone="error" role="alert" title="No plan was bought.">
          {problem}
        </Notice>
      )}
      {activated && (
        <Notice tone="success" role="status" title="Your free plan is active.">
          {activated}
        </Notice>
      )}
      {!canBuy && (
        <Notice tone="info" title="You currently have an active plan.">
          {upcoming
            ? 'Your next plan is already bought; it starts when the current one ends.'
            : `${anyUpgrade ? 'You can upgrade to a dearer plan now: the unused part of your current plan is credited against its price, and it replaces your plan at once. ' : ''}You can buy the next one in the last ${UPGRADE_WINDOW_DAYS} days of the current plan; it starts when that one ends.`}
        </Notice>
      )}
      {startsLater && current && (
        <Notice tone="info" title="Your new plan starts when the current one ends.">
          The plan you buy now begins on {formatDateTime(current.expireAt)} and runs for {TERM_MONTHS} months.
        </Notice>
      )}
      {(canBuy || anyUpgrade) && (
        <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
          <SegmentedControl legend="Currency" options={currencies} value={currency} onChange={setCurrency} />
          <p className="text-sm text-slate-600">
            {currency === 'NGN'
              ? usdRate === undefined
                ? 'Loading the dollar rate…'
                : `Priced at ₦${formatNumber(usdRate)} to the dollar; a 0.4% card fee is added when you pay.`
              : 'A 0.4% card fee is added when you pay.'}
          </p>
        </div>
      )}
      <PlansGrid
        plans={plans}
        isLoading={isLoading}
        error={error}
        onRetry={onRetry}
        currentPlanId={current && !ended ? current.plan._id : null}
        action={(plan) => {
          if (plan.amount === 0) {
            return (
              <div>
                <p className="mb-3 text-sm text-slate-600">No payment: one app per account, once per app.</p>
                <Button
                  className="w-full"
                  variant="secondary"
                  isLoading={buyingPlanId === plan._id}
                  disabled={running || (buyingPlanId !== null && buyingPlanId !== plan._id)}
                  onClick={() => onBuy(plan, currency)}
                  aria-label={`Activate the free plan ${plan.name}`}
                >
                  Activate free plan
                </Button>
              </div>
            );
          }
          const upgrade = upgradeTo(plan);
          if (upgrade?.kind === 'upgrade') {
            return (
              <div>
                <dl className="mb-3 space-y-1 text-sm text-slate-600" aria-label={`Upgrade to ${plan.name}`}>
                  <div className="flex justify-between">
                    <dt>Price</dt>
                    <dd className="tabular-nums">{dollars(upgrade.priceCents)}</dd>
                  </div>
                  <div className={upgrade.creditCents > 0 ? 'flex justify-between' : 'hidden'}>
                    <dt>Credit for the unused part of {current!.plan.name}</dt>
                    <dd className="tabular-nums" data-testid="credit">
                      −{dollars(upgrade.creditCents)}
                    </dd>
                  </div>
                  <div className="flex items-baseline justify-between">
                    <dt>You pay (0.4% fee included)</dt>
                    <dd className="text-base font-semibold text-slate-900 tabular-nums" data-testid="price">
                      {priceKnown
                        ? `${sign[currency]}${formatNumber(planPrice(upgrade.dueCents / 100, currency, usdRate ?? 0))} ${currency}`
                        : '…'}
                    </dd>
                  </div>
                </dl>
                <Button
                  className="w-full"
                  isLoading={buyingPlanId === plan._id}
                  disabled={!priceKnown || (buyingPlanId !== null && buyingPlanId !== plan._id)}
                  onClick={() => onBuy(plan, currency)}
                  aria-label={`Upgrade to ${plan.name} now in ${currency}`}
                >
                  Upgrade now
                </Button>
              </div>
            );
          }
          return canBuy ? (
            <div>
              <p className="mb-3 flex items-baseline justify-between text-sm text-slate-600">
                You pay
                <span className="text-base font-semibold text-slate-900 tabular-nums" data-testid="price">
                  {priceKnown ? `${price(plan)} ${currency}` : '…'}
                </span>
              </p>
              <Button
                className="w-full"
                isLoading={buyingPlanId === plan._id}
                disabled={!priceKnown || (buyingPlanId !== null && buyingPlanId !== plan._id)}
                onClick={() => onBuy(plan, currency)}
                aria-label={`Buy plan ${plan.name} in ${currency}`}
              >
                Buy plan
              </Button>
            </div>
          ) : (
            <Button className="w-full" disabled>
              Buy plan
            </Button>
          );
        }}
      />
    </div>
  );
}

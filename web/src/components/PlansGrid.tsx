import { entitlementLines, formatNumber, type Plan } from '@afrofx/shared';
import type { ReactNode } from 'react';
import { cn } from '../lib/cn';
import { Card } from './Card';
import { EmptyState } from './EmptyState';
import { ErrorState } from './ErrorState';

interface PlansGridProps {
  plans: ReadonlyArray<Plan> | undefined;
  isLoading: boolean;
  error?: string | null;
  onRetry?: () => void;
  /** The call to action at the foot of each plan card. */
  action: (plan: Plan) => ReactNode;
  /** The plan the viewer is on, marked as theirs. */
  currentPlanId?: string | null;
}

function CheckIcon() {
  return (
    <svg
      className="mt-0.5 size-5 shrink-0 text-brand-600"
      viewBox="0 0 20 20"
      fill="currentColor"
      aria-hidden="true"
    >
      <path
        fillRule="evenodd"
        d="M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4L8 12.58l7.3-7.3a1 1 0 0 1 1.4 0Z"
      />
    </svg>
  );
}

/** What a card lists, each line once: a marketing line that repeats an entitlement or an earlier line is left out. */
function cardLines(plan: Plan) {
  const entitlements = entitlementLines(plan.entitlements);
  const seen = new Set(entitlements.map((line) => line.trim().toLowerCase()));
  const features = plan.features.filter((feature) => {
    const key = feature.title.trim().toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return { entitlements, features };
}

/** The plans on sale, cheapest first, each with its price, quota and features. */
export function PlansGrid({ plans, isLoading, error, onRetry, action, currentPlanId }: PlansGridProps) {
  if (isLoading) {
    return (
      <div className="grid gap-6 md:grid-cols-3" aria-busy="true">
        <span role="status" className="sr-only">
          Loading plans
        </span>
        {[0, 1, 2].map((key) => (
          <Card key={key} className="h-80 animate-pulse bg-slate-100" />
        ))}
      </div>
    );
  }
  if (error) {
    return (
      <Card>
        <ErrorState message={error} onRetry={onRetry} />
      </Card>
    );
  }
  if (!plans?.length) {
    return (
      <Card>
        <EmptyState message="Plans is empty." description="New plans are on their way. Check back shortly." />
      </Card>
    );
  }

  const sorted = [...plans].sort((a, b) => a.amount - b.amount);
  return (
    // Four plans (the free tier and three paid ones) sit two by two rather than three and a lone one.
    <ul
      className={cn('grid gap-6 md:grid-cols-2', sorted.length === 4 ? '2xl:grid-cols-4' : 'lg:grid-cols-3')}
    >
      {sorted.map((plan) => (
        <li key={plan._id}>
          <Card
            className={cn(
              'flex h-full flex-col p-6 sm:p-8',
              plan._id === currentPlanId && 'outline-2 outline-brand-600',
            )}
          >
            <div className="flex items-start justify-between gap-3">
              <h3 className="text-lg font-semibold text-brand-900">{plan.name}</h3>
              {plan._id === currentPlanId && (
                <span className="rounded-full bg-brand-700 px-2.5 py-0.5 text-xs font-semibold text-white">
                  Your plan
                </span>
              )}
            </div>
            <p className="mt-4 flex items-baseline gap-1">
              {/* A free plan's price is $0, so a plan named Free never reads "Free / Free". */}
              <span className="text-4xl font-extrabold tracking-tight text-slate-900">
                {plan.amount === 0 ? '$0' : `$${formatNumber(plan.amount)}`}
              </span>
              <span className="text-sm font-medium text-slate-500">
                {plan.amount > 0 ? '/ year' : 'no charge'}
              </span>
            </p>
            <p className="mt-2 text-sm text-slate-600">
              <span className="font-semibold text-slate-900">{formatNumber(plan.numberOfRequest, 0)}</span>{' '}
              requests per month
            </p>
            {/* What the API opens, from the entitlements it enforces; the features are marketing lines. */}
            <ul
              className="mt-6 space-y-3 text-sm text-slate-700"
              aria-label={`What ${plan.name} opens`}
              data-testid="entitlements"
            >
              {cardLines(plan).entitlements.map((line) => (
                <li key={line} className="flex gap-3">
                  <CheckIcon />
                  {line}
                </li>
              ))}
            </ul>
            {cardLines(plan).features.length ? (
              <ul className="mt-4 space-y-2 border-t border-slate-100 pt-4 text-sm text-slate-600">
                {cardLines(plan).features.map((feature) => (
                  <li key={feature._id}>{feature.title}</li>
                ))}
              </ul>
            ) : (
              <p className="mt-4 border-t border-slate-100 pt-4 text-sm text-slate-500">No features added.</p>
            )}
            <div className="flex-1" />
            <div className="mt-8">{action(plan)}</div>
          </Card>
        </li>
      ))}
    </ul>
  );
}

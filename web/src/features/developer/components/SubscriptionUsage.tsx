import { formatNumber, type Subscription } from '@afrofx/shared';
import { cn } from '../../../lib/cn';
import { usagePercent } from '../plan-status';
import { freshnessLine, QUOTA_COUNT_NOTE } from '../request-counts';

/** This month's charged requests against the plan's monthly limit, and when the count was read. */
export function SubscriptionUsage({
  subscription,
  fetchedAt,
}: {
  subscription: Subscription;
  fetchedAt?: number;
}) {
  const fresh = freshnessLine(fetchedAt);
  const percent = usagePercent(subscription);
  const exhausted = subscription.status === 'exhausted' || percent >= 100;
  return (
    <div>
      <div className="flex items-baseline justify-between gap-3 text-sm">
        <span className="font-medium text-slate-600">Requests this month</span>
        <span className="text-slate-500 tabular-nums">
          <span className="font-semibold text-slate-900">
            {formatNumber(subscription.processedRequest, 0)}
          </span>{' '}
          / {formatNumber(subscription.limit, 0)}
        </span>
      </div>
      <div
        role="progressbar"
        aria-label="Requests used this month"
        aria-valuemin={0}
        aria-valuemax={subscription.limit}
        aria-valuenow={Math.min(subscription.processedRequest, subscription.limit)}
        aria-valuetext={`${formatNumber(subscription.processedRequest, 0)} of ${formatNumber(subscription.limit, 0)} requests`}
        className="mt-2 h-2.5 overflow-hidden rounded-full bg-slate-100"
      >
        <div
          className={cn(
            'h-full rounded-full transition-[width]',
            exhausted ? 'bg-red-600' : percent >= 90 ? 'bg-gold-500' : 'bg-brand-600',
          )}
          style={{ width: `${Math.max(percent, percent > 0 ? 1 : 0)}%` }}
        />
      </div>
      <p className="mt-1.5 text-xs text-slate-500">
        {formatNumber(percent, percent > 0 && percent < 1 ? 2 : 0)}% of the monthly quota used
      </p>
      <p className="mt-1 text-xs text-slate-500" data-testid="quota-count-note">
        {QUOTA_COUNT_NOTE}
      </p>
      {fresh && (
        <p className="mt-1 text-xs text-slate-500 tabular-nums" data-testid="quota-freshness">
          {fresh}
        </p>
      )}
    </div>
  );
}

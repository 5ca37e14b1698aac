import { formatDateTime, formatNumber, type Subscription } from '@afrofx/shared';
import type { ReactNode } from 'react';
import { Card } from '../../../components/Card';
import { SubscriptionStatusPill } from '../../../components/SubscriptionStatusPill';
import { daysLeft } from '../plan-status';
import { SubscriptionUsage } from './SubscriptionUsage';

interface SubscriptionCardProps {
  title: string;
  subscription: Subscription;
  /** When the subscription was read (its count is polled). */
  fetchedAt?: number;
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{label}</dt>
      <dd className="mt-1 text-sm font-medium text-slate-900 tabular-nums">{children}</dd>
    </div>
  );
}

/** One subscription: plan, status pill, this month's usage and its dates. */
export function SubscriptionCard({ title, subscription, fetchedAt }: SubscriptionCardProps) {
  const upcoming = subscription.status === 'upcoming';
  const ended = subscription.status === 'expired' || subscription.status === 'upgraded';
  const left = daysLeft(subscription);
  return (
    <Card className="p-5 sm:p-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <p className="text-sm font-medium text-slate-500">{title}</p>
          <div className="mt-1 flex flex-wrap items-center gap-3">
            <h2 className="text-2xl font-bold tracking-tight text-brand-900">{subscription.plan.name}</h2>
            <SubscriptionStatusPill status={subscription.status} />
          </div>
        </div>
        {!upcoming && !ended && (
          <p className="rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-600 ring-1 ring-slate-200">
            <span className="font-semibold text-slate-900 tabular-nums">{left}</span>{' '}
            {left === 1 ? 'day' : 'days'} left
          </p>
        )}
      </div>
      {!upcoming && (
        <div className="mt-6">
          <SubscriptionUsage subscription={subscription} fetchedAt={fetchedAt} />
        </div>
      )}
      <dl className="mt-6 grid gap-5 border-t border-slate-100 pt-5 sm:grid-cols-2 lg:grid-cols-4">
        <Detail label={upcoming ? 'Starts' : 'Started'}>{formatDateTime(subscription.startsAt)}</Detail>
        <Detail label={ended ? 'Ended' : 'Expires'}>{formatDateTime(subscription.expireAt)}</Detail>
        <Detail label="Monthly limit">{formatNumber(subscription.limit, 0)} requests</Detail>
        <Detail label="Last increment">
          {subscription.lastIncrement ? formatDateTime(subscription.lastIncrement) : '—'}
        </Detail>
      </dl>
    </Card>
  );
}

import { formatDateTime, GENERIC_ERROR_MESSAGE } from '@afrofx/shared';
import { Link } from 'react-router';
import { buttonClasses } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { CodeWindow } from '../../../components/CodeWindow';
import { DataView } from '../../../components/DataView';
import { ErrorState } from '../../../components/ErrorState';
import { ExternalLink } from '../../../components/ExternalLink';
import { PageHeader } from '../../../components/PageHeader';
import { SubscriptionStatusPill } from '../../../components/SubscriptionStatusPill';
import { Spinner } from '../../../components/Spinner';
import { API_DOCS_URL } from '../../../lib/links';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { PlanBanner } from '../components/PlanBanner';
import { RequestsChart } from '../components/RequestsChart';
import { StatCard } from '../components/StatCard';
import { SubscriptionUsage } from '../components/SubscriptionUsage';
import type { CurrentApp } from '../current-app';
import { requestSample } from '../request-sample';
import {
  useFetchAnalyticsQuery,
  useFetchSubscriptionQuery,
  useFetchUpcomingSubscriptionQuery,
} from '../developer-api';
import { paths } from '../../../lib/paths';
import { COUNTER_POLLING, TRAFFIC_COUNT_NOTE } from '../request-counts';

export function DashboardPage({ app }: { app: CurrentApp }) {
  useDocumentTitle('Dashboard');
  const analytics = useFetchAnalyticsQuery(app._id, COUNTER_POLLING);
  const subscription = useFetchSubscriptionQuery(app._id, COUNTER_POLLING);
  const upcoming = useFetchUpcomingSubscriptionQuery(app._id);
  const counts = analytics.data;

  return (
    <>
      <PageHeader
        title="Dashboard"
        description={
          <>
            API traffic of <span className="font-semibold text-slate-900">{app.name}</span>, counted by UTC
            day.
          </>
        }
        actions={
          <Link to={paths.developer.request} className={buttonClasses('secondary')}>
            View request log
          </Link>
        }
      />
      <PlanBanner current={subscription.data} upcoming={upcoming.data} className="mb-6" />

      {analytics.isError ? (
        <Card>
          <ErrorState message={GENERIC_ERROR_MESSAGE} onRetry={analytics.refetch} />
        </Card>
      ) : (
        <>
          <div className="grid gap-4 sm:grid-cols-3">
            <StatCard
              label="Today"
              value={counts?.todayCount}
              hint="Calls since 00:00 UTC"
              testId="stat-today"
            />
            <StatCard
              label="Last 7 days"
              value={counts?.weekCount}
              hint="Calls, today included"
              testId="stat-week"
            />
            <StatCard
              label="Last 30 days"
              value={counts?.monthCount}
              hint="Calls, today included"
              testId="stat-month"
            />
          </div>
          <p className="mt-2 text-xs text-slate-500" data-testid="traffic-count-note">
            {TRAFFIC_COUNT_NOTE}
          </p>
          <Card className="mt-6 p-5 sm:p-6">
            <div className="mb-4 flex flex-wrap items-baseline justify-between gap-2">
              <h2 className="font-semibold text-slate-900">Requests per day</h2>
              <p className="flex items-center gap-4 text-xs text-slate-500">
                <span className="inline-flex items-center gap-1.5">
                  <span className="size-2.5 rounded-sm bg-brand-600" aria-hidden="true" />
                  Last 30 days
                </span>
                <span className="inline-flex items-center gap-1.5">
                  <span className="size-2.5 rounded-sm bg-gold-400" aria-hidden="true" />
                  Today
                </span>
              </p>
            </div>
            {counts ? (
              <RequestsChart daily={counts.daily} />
            ) : (
              <div className="flex h-[260px] items-center justify-center">
                <Spinner label="Loading the request chart" className="text-brand-600 [&_svg]:size-8" />
              </div>
            )}
          </Card>
        </>
      )}

      <div className="mt-6 grid grid-cols-1 gap-6 lg:grid-cols-2">
        <Card className="flex flex-col p-5 sm:p-6">
          <div className="flex items-center justify-between gap-3">
            <h2 className="font-semibold text-slate-900">Current plan</h2>
            <Link
              to={paths.developer.plans}
              className="text-sm font-semibold text-brand-700 hover:text-brand-900"
            >
              Manage plan →
            </Link>
          </div>
          <DataView
            isLoading={subscription.isLoading}
            isError={subscription.isError}
            isEmpty={!subscription.data}
            emptyMessage="No active subscription."
            emptyDescription="Subscribe to a plan to start calling the API with this app's key."
            emptyAction={
              <Link to={`${paths.developer.plans}?tab=plans`} className={buttonClasses('primary', 'sm')}>
                See plans
              </Link>
            }
            loadingLabel="Loading the plan"
            onRetry={subscription.refetch}
          >
            {subscription.data && (
              <div className="mt-4 space-y-5">
                <div className="flex flex-wrap items-center gap-3">
                  <p className="text-2xl font-bold tracking-tight text-brand-900">
                    {subscription.data.plan.name}
                  </p>
                  <SubscriptionStatusPill status={subscription.data.status} />
                </div>
                <SubscriptionUsage
                  subscription={subscription.data}
                  fetchedAt={subscription.fulfilledTimeStamp}
                />
                <p className="text-sm text-slate-600">
                  Expires{' '}
                  <span className="font-medium text-slate-900">
                    {formatDateTime(subscription.data.expireAt)}
                  </span>
                </p>
              </div>
            )}
          </DataView>
        </Card>
        <Card className="p-5 sm:p-6">
          <h2 className="font-semibold text-slate-900">Make a request</h2>
          <p className="mt-1 mb-4 text-sm text-slate-600">
            Send your private key as a bearer token. Every call shows up in the request log.
          </p>
          <CodeWindow title="Terminal">{requestSample(window.location.origin)}</CodeWindow>
          <div className="mt-4 flex flex-wrap gap-2">
            <Link to={paths.developer.apiKeys} className={buttonClasses('primary', 'sm')}>
              Get your API key
            </Link>
            <ExternalLink href={API_DOCS_URL} className={buttonClasses('secondary', 'sm')}>
              Read the API documentation
            </ExternalLink>
          </div>
        </Card>
      </div>
    </>
  );
}

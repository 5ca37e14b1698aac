import { GENERIC_ERROR_MESSAGE, type Purchase, type Subscription } from '@afrofx/shared';
import { skipToken } from '@reduxjs/toolkit/query';
import { Link, useSearchParams } from 'react-router';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { DataView } from '../../../components/DataView';
import { Notice } from '../../../components/Notice';
import { pagedRows } from '../../../components/PagedTable';
import { PageHeader } from '../../../components/PageHeader';
import { Tabs } from '../../../components/Tabs';
import { paths } from '../../../lib/paths';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { PlanBanner } from '../components/PlanBanner';
import { PlansOnSale } from '../components/PlansOnSale';
import { SubscriptionCard } from '../components/SubscriptionCard';
import { TransactionsView } from '../components/TransactionsView';
import type { CurrentApp } from '../current-app';
import {
  useFetchDollarBuyRateQuery,
  useFetchPlansOnSaleQuery,
  useFetchReceiptQuery,
  useFetchSubscriptionQuery,
  useFetchTransactionsInfiniteQuery,
  useFetchUpcomingSubscriptionQuery,
} from '../developer-api';
import { pricingRate } from '../plan-status';
import { COUNTER_POLLING } from '../request-counts';
import { usePlanPurchase } from '../use-plan-purchase';

const tabs = [
  { value: 'current', label: 'Current Plan' },
  { value: 'plans', label: 'Plans' },
  { value: 'transactions', label: 'Transactions' },
] as const;

type PlansTab = (typeof tabs)[number]['value'];

const isTab = (value: string | null): value is PlansTab => tabs.some((tab) => tab.value === value);

export function PlansPage({ app }: { app: CurrentApp }) {
  useDocumentTitle('Plans');
  // The tab is in the address, so a banner elsewhere can open the Plans tab directly.
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = searchParams.get('tab');
  const tab: PlansTab = isTab(requested) ? requested : 'current';
  const paid = searchParams.get('paid');
  const subscription = useFetchSubscriptionQuery(app._id, COUNTER_POLLING);
  const upcoming = useFetchUpcomingSubscriptionQuery(app._id);

  return (
    <>
      <PageHeader
        title="Plans"
        description={
          <>
            The subscription, plans and payments of{' '}
            <span className="font-semibold text-slate-900">{app.name}</span>.
          </>
        }
      />
      {paid && <PaymentReceived reference={paid} onDismiss={() => setSearchParams({}, { replace: true })} />}
      <PlanBanner current={subscription.data} upcoming={upcoming.data} className="mb-6" />
      <Tabs
        label="Plans"
        tabs={tabs}
        value={tab}
        onChange={(next) => setSearchParams(next === 'current' ? {} : { tab: next }, { replace: true })}
      >
        {tab === 'current' && (
          <CurrentPlanTab
            subscription={subscription}
            upcoming={upcoming.data}
            onSeePlans={() => setSearchParams({ tab: 'plans' }, { replace: true })}
          />
        )}
        {tab === 'plans' && (
          <PlansTab
            appId={app._id}
            current={subscription.data}
            upcoming={upcoming.data}
            onPurchased={async ({ transaction }) => {
              await Promise.all([subscription.refetch(), upcoming.refetch()]);
              // The reloaded page names the payment, so it can say what it bought.
              window.location.replace(
                `${window.location.pathname}?paid=${encodeURIComponent(transaction.transactionRefrence)}`,
              );
            }}
            onActivated={async () => {
              await Promise.all([subscription.refetch(), upcoming.refetch()]);
            }}
          />
        )}
        {tab === 'transactions' && <TransactionsTab appId={app._id} />}
      </Tabs>
    </>
  );
}

/** The outcome of the purchase that just reloaded this page, from the server's receipt of it. */
function PaymentReceived({ reference, onDismiss }: { reference: string; onDismiss: () => void }) {
  const first = useFetchReceiptQuery(reference);
  // Until the receipt mail is recorded as sent, ask again now and then, so the message can say it was.
  const receipt = useFetchReceiptQuery(first.data ? reference : skipToken, {
    pollingInterval: first.data && !first.data.mailedAt ? 2000 : 0,
  });
  const data = receipt.data ?? first.data;
  if (!data) return null;
  return (
    <Notice
      tone="success"
      role="status"
      className="mb-6"
      title={
        data.mailedAt
          ? `Payment received — receipt sent to ${data.billedTo.email}`
          : `Payment received — receipt on its way to ${data.billedTo.email}`
      }
      action={
        <>
          <Link
            to={`${paths.developer.receipts}/${data.reference}`}
            className="text-sm font-semibold text-brand-700 underline"
          >
            View receipt
          </Link>
          <Button variant="ghost" size="sm" onClick={onDismiss}>
            Dismiss
          </Button>
        </>
      }
    >
      {data.plan.name} for {data.app.name}
      {data.isUpcoming ? ' starts when the current plan ends.' : ' is active now.'}
    </Notice>
  );
}

interface CurrentPlanTabProps {
  subscription: {
    data?: Subscription | null;
    fulfilledTimeStamp?: number;
    isLoading: boolean;
    isError: boolean;
    refetch: () => unknown;
  };
  upcoming: Subscription | null | undefined;
  onSeePlans: () => void;
}

function CurrentPlanTab({ subscription, upcoming, onSeePlans }: CurrentPlanTabProps) {
  return (
    <div className="space-y-6">
      {subscription.data ? (
        <SubscriptionCard
          title="Current plan"
          subscription={subscription.data}
          fetchedAt={subscription.fulfilledTimeStamp}
        />
      ) : (
        <Card>
          <DataView
            isLoading={subscription.isLoading}
            isError={subscription.isError}
            isEmpty
            emptyMessage="No active subscription."
            emptyDescription="Pick a plan to start calling the API with this app's key."
            emptyAction={<Button onClick={onSeePlans}>See plans</Button>}
            loadingLabel="Loading the subscription"
            onRetry={subscription.refetch}
          >
            {null}
          </DataView>
        </Card>
      )}
      {upcoming && <SubscriptionCard title="Next plan" subscription={upcoming} />}
    </div>
  );
}

interface PlansTabProps {
  appId: string;
  current: Subscription | null | undefined;
  upcoming: Subscription | null | undefined;
  onPurchased: (purchase: Purchase) => Promise<void>;
  onActivated: () => Promise<void>;
}

function PlansTab({ appId, current, upcoming, onPurchased, onActivated }: PlansTabProps) {
  const { data: plans, isLoading, error, refetch } = useFetchPlansOnSaleQuery();
  const usdRate = pricingRate(useFetchDollarBuyRateQuery());
  const { buy, buyingPlanId, problem, activated } = usePlanPurchase({
    appId,
    current,
    usdRate,
    onPurchased,
    onActivated,
  });
  return (
    <PlansOnSale
      plans={plans}
      isLoading={isLoading}
      error={error ? GENERIC_ERROR_MESSAGE : null}
      onRetry={() => void refetch()}
      current={current}
      upcoming={upcoming}
      usdRate={usdRate}
      buyingPlanId={buyingPlanId}
      onBuy={(plan, currency) => void buy(plan, currency)}
      problem={problem}
      activated={activated}
    />
  );
}

function TransactionsTab({ appId }: { appId: string }) {
  const transactions = pagedRows(useFetchTransactionsInfiniteQuery(appId));
  return (
    <Card className="overflow-hidden">
      <TransactionsView {...transactions} />
    </Card>
  );
}

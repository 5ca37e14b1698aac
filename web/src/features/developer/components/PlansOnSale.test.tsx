import { ALL_ENTITLEMENTS, type Plan, type Subscription } from '@afrofx/shared';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ComponentProps } from 'react';
import { makeSubscription } from '../../../test/developer';
import { PlansOnSale } from './PlansOnSale';

const now = new Date();

const plans: Plan[] = [
  {
    _id: 'plan-growth',
    name: 'Growth',
    amount: 49,
    numberOfRequest: 100000,
    entitlements: ALL_ENTITLEMENTS,
    onSale: true,
    createdAt: '2026-01-01T00:00:00.000Z',
    features: [{ _id: 'f1', title: 'Daily history' }],
  },
  {
    _id: 'plan-starter',
    name: 'Starter',
    amount: 10,
    numberOfRequest: 5000,
    entitlements: { ...ALL_ENTITLEMENTS, endpoints: ['latest'], historyDays: 0 },
    onSale: true,
    createdAt: '2026-01-02T00:00:00.000Z',
    features: [],
  },
];

function renderPlans(props: Partial<ComponentProps<typeof PlansOnSale>> = {}) {
  const onBuy = jest.fn();
  render(
    <PlansOnSale
      plans={plans}
      isLoading={false}
      error={null}
      onRetry={() => undefined}
      current={null}
      upcoming={null}
      usdRate={1500}
      buyingPlanId={null}
      onBuy={onBuy}
      problem={null}
      {...props}
    />,
  );
  return onBuy;
}

const card = (name: string) => within(screen.getByRole('heading', { name }).closest('li') as HTMLElement);
const ending = (days: number, overrides: Partial<Subscription> = {}) =>
  makeSubscription(overrides, now, days);

describe('Plans tab (SPEC §4)', () => {
  it('lets a developer without a plan buy one', async () => {
    const onBuy = renderPlans();
    expect(screen.queryByText('You currently have an active plan.')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Buy plan Growth in USD' }));
    expect(onBuy).toHaveBeenCalledWith(plans[0], 'USD');
  });

  it('refuses a purchase during an active plan with more than 5 days left', () => {
    renderPlans({ current: ending(30) });
    expect(screen.getByText('You currently have an active plan.')).toBeInTheDocument();
    expect(card('Growth').getByRole('button', { name: 'Buy plan' })).toBeDisabled();
    expect(screen.queryByRole('radio', { name: 'Pay in NGN' })).not.toBeInTheDocument();
  });

  it('refuses a purchase while a plan is upcoming', () => {
    renderPlans({ current: ending(3), upcoming: ending(368, { status: 'upcoming' }) });
    expect(screen.getByText('You currently have an active plan.')).toBeInTheDocument();
    expect(card('Starter').getByRole('button', { name: 'Buy plan' })).toBeDisabled();
  });

  it('allows it in the last 5 days of the plan, saying the new one starts when the current one ends', async () => {
    const onBuy = renderPlans({ current: ending(3) });
    expect(screen.getByText('Your new plan starts when the current one ends.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Buy plan Starter in USD' }));
    expect(onBuy).toHaveBeenCalledWith(plans[1], 'USD');
  });

  it.each([
    ['expired', ending(-2, { status: 'expired' })],
    ['exhausted', ending(60, { status: 'exhausted' })],
  ])('allows it when the plan is %s', (_status, current) => {
    renderPlans({ current });
    expect(screen.getByRole('button', { name: 'Buy plan Growth in USD' })).toBeEnabled();
    expect(screen.queryByText('You currently have an active plan.')).not.toBeInTheDocument();
  });

  it('shows the USD price with the 0.4% fee', () => {
    renderPlans();
    expect(card('Growth').getByTestId('price')).toHaveTextContent('$49.20 USD');
    expect(card('Starter').getByTestId('price')).toHaveTextContent('$10.04 USD');
  });

  it('shows the NGN price from the dollar buy rate and buys in NGN', async () => {
    const onBuy = renderPlans({ usdRate: 1500 });
    await userEvent.click(screen.getByRole('radio', { name: 'Pay in NGN' }));
    // 49 × 1.004 × 1500 = 73,794; 10 × 1.004 × 1500 = 15,060.
    expect(card('Growth').getByTestId('price')).toHaveTextContent('₦73,794.00 NGN');
    expect(card('Starter').getByTestId('price')).toHaveTextContent('₦15,060.00 NGN');
    expect(screen.getByText(/Priced at ₦1,500.00 to the dollar/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Buy plan Growth in NGN' }));
    expect(onBuy).toHaveBeenCalledWith(plans[0], 'NGN');
  });

  it('prices NGN at the 740 fallback it is given', async () => {
    renderPlans({ usdRate: 740 });
    await userEvent.click(screen.getByRole('radio', { name: 'Pay in NGN' }));
    // 49 × 1.004 × 740 = 36,405.04, whose integer part is 36,405.
    expect(card('Growth').getByTestId('price')).toHaveTextContent('₦36,405.00 NGN');
  });

  it('shows no NGN price, and sells nothing in NGN, while the rate loads', async () => {
    renderPlans({ usdRate: undefined });
    await userEvent.click(screen.getByRole('radio', { name: 'Pay in NGN' }));
    expect(card('Growth').getByTestId('price')).toHaveTextContent('…');
    expect(screen.getByRole('button', { name: 'Buy plan Growth in NGN' })).toBeDisabled();
  });

  it('holds the other plans while one purchase is under way', () => {
    renderPlans({ buyingPlanId: 'plan-growth' });
    expect(screen.getByRole('button', { name: 'Buy plan Starter in USD' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Buy plan Growth in USD' })).toHaveAttribute(
      'aria-busy',
      'true',
    );
  });

  it('says why the last purchase bought nothing', () => {
    renderPlans({ problem: 'The payment was declined, so no plan was bought.' });
    expect(screen.getByRole('alert')).toHaveTextContent('The payment was declined, so no plan was bought.');
  });

  it("says 'No features added.' on a plan without features", () => {
    renderPlans();
    expect(card('Starter').getByText('No features added.')).toBeInTheDocument();
  });

  it('lists each line once: a feature that repeats an entitlement or another feature is left out', () => {
    const growth = plans[0]!;
    renderPlans({
      plans: [
        {
          ...growth,
          features: [
            { _id: 'f1', title: 'Daily history' },
            { _id: 'f2', title: 'Currency conversion endpoint' },
            { _id: 'f3', title: 'daily history ' },
          ],
        },
      ],
    });
    expect(card('Growth').getAllByText('Currency conversion endpoint')).toHaveLength(1);
    expect(card('Growth').getAllByText(/daily history/i)).toHaveLength(1);
  });

  it("says 'Plans is empty.' when nothing is on sale", () => {
    renderPlans({ plans: [] });
    expect(screen.getByText('Plans is empty.')).toBeInTheDocument();
  });
});

describe('entitlements, the free plan and upgrades', () => {
  const free: Plan = {
    _id: 'plan-free',
    name: 'Free',
    amount: 0,
    numberOfRequest: 1000,
    entitlements: { endpoints: ['latest'], historyDays: 0, markets: ['bank'], burstPerSecond: 2 },
    onSale: true,
    createdAt: '2026-01-03T00:00:00.000Z',
    features: [],
  };

  it('lists on each card what the API opens to it', () => {
    renderPlans({ plans: [...plans, free] });
    const starter = within(card('Starter').getByTestId('entitlements'));
    expect(starter.getByText('Latest rates for every market')).toBeInTheDocument();
    expect(starter.queryByText('Currency conversion endpoint')).not.toBeInTheDocument();
    expect(
      within(card('Growth').getByTestId('entitlements')).getByText('Currency conversion endpoint'),
    ).toBeInTheDocument();
    expect(
      within(card('Free').getByTestId('entitlements')).getByText('Latest rates for the Bank market'),
    ).toBeInTheDocument();
    // The name once: the price of a plan named Free is not 'Free' again.
    expect(card('Free').getAllByText('Free')).toHaveLength(1);
    expect(card('Free').getByText('$0')).toBeInTheDocument();
    expect(card('Free').getByText('no charge')).toBeInTheDocument();
    expect(card('Free').queryByText('/ year')).not.toBeInTheDocument();
  });

  it('activates the free plan with no price, and only on an app with no plan running', async () => {
    const onBuy = renderPlans({ plans: [...plans, free] });
    await userEvent.click(screen.getByRole('button', { name: 'Activate the free plan Free' }));
    expect(onBuy).toHaveBeenCalledWith(free, 'USD');
  });

  it('holds the free plan while a plan runs, and says so when one was activated', () => {
    renderPlans({
      plans: [...plans, free],
      current: ending(300, { plan: { _id: 'plan-free', name: 'Free' }, amount: 0 }),
      activated: 'The Free plan is active on this app at no charge.',
    });
    expect(screen.getByRole('button', { name: 'Activate the free plan Free' })).toBeDisabled();
    expect(screen.getByRole('status')).toHaveTextContent('The Free plan is active on this app at no charge.');
  });

  it('shows the price, the credit for the unused term and the amount due before an upgrade', async () => {
    const startsAt = new Date(now.getTime() - 100 * 86_400_000);
    const expireAt = new Date(startsAt.getTime() + 365 * 86_400_000);
    const onBuy = renderPlans({
      current: ending(265, {
        plan: { _id: 'plan-starter', name: 'Starter' },
        amount: 10,
        startsAt: startsAt.toISOString(),
        expireAt: expireAt.toISOString(),
      }),
    });
    expect(screen.getByText(/You can upgrade to a dearer plan now/)).toBeInTheDocument();
    const growth = card('Growth');
    // 10 × 265/365 = 7.26 credited; 49 − 7.26 = 41.74, with the 0.4% fee 41.91.
    expect(growth.getByTestId('credit')).toHaveTextContent('−$7.26');
    expect(growth.getByTestId('price')).toHaveTextContent('$41.91 USD');
    expect(card('Starter').getByRole('button', { name: 'Buy plan' })).toBeDisabled();
    await userEvent.click(growth.getByRole('button', { name: 'Upgrade to Growth now in USD' }));
    expect(onBuy).toHaveBeenCalledWith(plans[0], 'USD');
  });
});

import { screen } from '@testing-library/react';
import { makeSubscription, renderAt } from '../../../test/developer';
import { PlanBanner } from './PlanBanner';

const DAY_MS = 86_400_000;
const now = new Date();

const renderBanner = (...props: Parameters<typeof PlanBanner>) =>
  renderAt('/developer/home', '/developer/*', <PlanBanner {...props[0]} />);

describe('plan banner', () => {
  it('says when an upcoming plan starts', () => {
    const current = makeSubscription({}, now, 3);
    const upcoming = makeSubscription(
      { status: 'upcoming', plan: { _id: 'plan-business', name: 'Business' }, startsAt: current.expireAt },
      new Date(now.getTime() + 3 * DAY_MS),
      365,
    );
    renderBanner({ current, upcoming });
    expect(screen.getByRole('status')).toHaveTextContent(
      'Hey your new plan will kick in, once your current plan expires.',
    );
    expect(screen.getByRole('status')).toHaveTextContent('Your Business plan starts on');
  });

  it('asks to subscribe, in red, when the plan ends within 5 days, leading to the Plans tab', () => {
    renderBanner({ current: makeSubscription({}, now, 2.5), upcoming: null });
    expect(screen.getByRole('alert')).toHaveTextContent('Your Growth plan expires in 3 days.');
    expect(screen.getByRole('link', { name: 'Subscribe now' })).toHaveAttribute(
      'href',
      '/developer/plans?tab=plans',
    );
  });

  it('shows nothing otherwise', () => {
    renderBanner({ current: makeSubscription({}, now, 30), upcoming: null });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });
});

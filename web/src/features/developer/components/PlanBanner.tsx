import { formatDateTime, type Subscription } from '@afrofx/shared';
import { Link } from 'react-router';
import { buttonClasses } from '../../../components/Button';
import { Notice } from '../../../components/Notice';
import { daysLeft, planBanner } from '../plan-status';

interface PlanBannerProps {
  current: Subscription | null | undefined;
  upcoming: Subscription | null | undefined;
  className?: string;
}

/** SPEC §4 plan banners. */
export function PlanBanner({ current, upcoming, className }: PlanBannerProps) {
  const kind = planBanner(current, upcoming);
  if (kind === 'upcoming' && upcoming) {
    return (
      <Notice
        tone="info"
        role="status"
        title="Hey your new plan will kick in, once your current plan expires."
        className={className}
      >
        Your {upcoming.plan.name} plan starts on {formatDateTime(upcoming.startsAt)}.
      </Notice>
    );
  }
  if (kind === 'expiring' && current) {
    const days = daysLeft(current);
    return (
      <Notice
        tone="error"
        role="alert"
        title={`Your ${current.plan.name} plan expires in ${days === 1 ? '1 day' : `${days} days`}.`}
        action={
          <Link to="/developer/plans?tab=plans" className={buttonClasses('danger', 'sm')}>
            Subscribe now
          </Link>
        }
        className={className}
      >
        Subscribe to a plan now to keep your API requests running: it starts when the current one ends on{' '}
        {formatDateTime(current.expireAt)}.
      </Notice>
    );
  }
  return null;
}

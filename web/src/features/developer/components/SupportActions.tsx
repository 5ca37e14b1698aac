import { SUPPORT_MAIL_SUBJECT } from '@afrofx/shared';
import { useState } from 'react';
import { Link } from 'react-router';
import { buttonClasses, Button } from '../../../components/Button';
import { NavIcon, sidebarActionClasses } from '../../../components/ConsoleShell';
import { ExternalLink } from '../../../components/ExternalLink';
import { Modal } from '../../../components/Modal';
import { DEMO_BOOKING_URL } from '../../../lib/links';

const supportMailUrl = (address: string) =>
  `mailto:${address}?subject=${encodeURIComponent(SUPPORT_MAIL_SUBJECT)}`;

interface SupportActionsProps {
  /** Whether the current app has a subscription; undefined while that is being checked. */
  hasSubscription: boolean | undefined;
  /** The configured support address (SUPPORT_EMAIL); undefined while it loads. */
  supportEmail: string | undefined;
}

/**
 * SPEC §5: booking a demo (a 30-minute slot) and e-mailing support are for subscribers; anyone else
 * is told so and pointed to the plans.
 */
export function SupportActions({ hasSubscription, supportEmail }: SupportActionsProps) {
  const [gateOpen, setGateOpen] = useState(false);
  const close = () => setGateOpen(false);

  if (hasSubscription) {
    return (
      <>
        <ExternalLink href={DEMO_BOOKING_URL} className={sidebarActionClasses}>
          <NavIcon name="calendar" />
          Book a demo
        </ExternalLink>
        <a
          href={supportEmail ? supportMailUrl(supportEmail) : undefined}
          aria-disabled={supportEmail ? undefined : true}
          className={sidebarActionClasses}
        >
          <NavIcon name="emails" />
          E-mail support
        </a>
      </>
    );
  }

  const checking = hasSubscription === undefined;
  return (
    <>
      <button
        type="button"
        className={sidebarActionClasses}
        disabled={checking}
        onClick={() => setGateOpen(true)}
      >
        <NavIcon name="calendar" />
        Book a demo
      </button>
      <button
        type="button"
        className={sidebarActionClasses}
        disabled={checking}
        onClick={() => setGateOpen(true)}
      >
        <NavIcon name="emails" />
        E-mail support
      </button>
      <Modal
        open={gateOpen}
        title="Exclusive Support and Demos!"
        description="Demos and e-mail support are reserved for subscribers. Subscribe to a plan to unlock them."
        onClose={close}
        size="sm"
      >
        <ul className="mb-6 space-y-3 rounded-xl bg-gold-50 p-4 text-sm text-slate-700 ring-1 ring-gold-400/30 ring-inset">
          <li className="flex gap-3">
            <NavIcon name="calendar" className="text-gold-600" />A 30-minute demo call with our team
          </li>
          <li className="flex gap-3">
            <NavIcon name="emails" className="text-gold-600" />
            Help by e-mail from the people who run the API
          </li>
        </ul>
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={close}>
            Not now
          </Button>
          <Link to="/developer/plans?tab=plans" onClick={close} className={buttonClasses('primary')}>
            See plans
          </Link>
        </div>
      </Modal>
    </>
  );
}

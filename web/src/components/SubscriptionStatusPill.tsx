import type { SubscriptionStatus } from '@afrofx/shared';
import { Pill, type PillTone } from './Pill';

/** SPEC §4: the pill colour follows the status (active green, expired red, exhausted dark red). */
const looks: Record<SubscriptionStatus, { tone: PillTone; label: string }> = {
  active: { tone: 'green', label: 'Active' },
  expired: { tone: 'red', label: 'Expired' },
  exhausted: { tone: 'darkred', label: 'Exhausted' },
  upcoming: { tone: 'blue', label: 'Upcoming' },
  upgraded: { tone: 'slate', label: 'Upgraded' },
};

/** A subscription's status; SPEC §8 'No status' when the server sent none. */
export function SubscriptionStatusPill({ status }: { status: SubscriptionStatus | null | undefined }) {
  if (!status) return <Pill>No status</Pill>;
  const look = looks[status];
  return <Pill tone={look.tone}>{look.label}</Pill>;
}

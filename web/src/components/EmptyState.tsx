import type { ReactNode } from 'react';
import { StatusPanel } from './StatusPanel';

interface EmptyStateProps {
  message: string;
  description?: ReactNode;
  /** A button or link that gets the user out of the empty state. */
  action?: ReactNode;
}

const TRAY =
  'M3.75 9.75h16.5M6 4.5h12A2.25 2.25 0 0 1 20.25 6.75v10.5A2.25 2.25 0 0 1 18 19.5H6a2.25 2.25 0 0 1-2.25-2.25V6.75A2.25 2.25 0 0 1 6 4.5Z';

export function EmptyState({ message, description, action }: EmptyStateProps) {
  return (
    <StatusPanel tone="neutral" iconPath={TRAY} message={message}>
      {description && <p className="mt-1 max-w-sm text-sm text-slate-500">{description}</p>}
      {action && <div className="mt-5">{action}</div>}
    </StatusPanel>
  );
}

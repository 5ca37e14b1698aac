import { Button } from './Button';
import { StatusPanel } from './StatusPanel';

interface ErrorStateProps {
  message: string;
  onRetry?: () => void;
}

const WARNING =
  'M12 9v3.75m0 3.75h.008M10.34 3.94 2.7 17.25A1.95 1.95 0 0 0 4.4 20.2h15.2a1.95 1.95 0 0 0 1.7-2.95L13.66 3.94a1.95 1.95 0 0 0-3.32 0Z';

export function ErrorState({ message, onRetry }: ErrorStateProps) {
  return (
    <StatusPanel tone="error" iconPath={WARNING} message={message} role="alert">
      {onRetry && (
        <Button variant="secondary" size="sm" className="mt-4" onClick={onRetry}>
          Try again
        </Button>
      )}
    </StatusPanel>
  );
}

import { GENERIC_ERROR_MESSAGE } from '@afrofx/shared';
import type { ReactNode } from 'react';
import { EmptyState } from './EmptyState';
import { ErrorState } from './ErrorState';
import { Spinner } from './Spinner';

interface DataViewProps {
  isLoading: boolean;
  isError: boolean;
  isEmpty: boolean;
  emptyMessage: string;
  emptyDescription?: ReactNode;
  emptyAction?: ReactNode;
  /** Read by screen readers while loading. */
  loadingLabel?: string;
  onRetry?: () => void;
  children: ReactNode;
}

/**
 * SPEC §4 request data view: an error shows the generic message, loading a spinner, no data the empty
 * fallback, and otherwise the content.
 */
export function DataView({
  isLoading,
  isError,
  isEmpty,
  emptyMessage,
  emptyDescription,
  emptyAction,
  loadingLabel = 'Loading',
  onRetry,
  children,
}: DataViewProps) {
  if (isError) return <ErrorState message={GENERIC_ERROR_MESSAGE} onRetry={onRetry} />;
  if (isLoading) {
    return (
      <div className="flex justify-center px-6 py-16">
        <Spinner label={loadingLabel} className="text-brand-600 [&_svg]:size-8" />
      </div>
    );
  }
  if (isEmpty)
    return <EmptyState message={emptyMessage} description={emptyDescription} action={emptyAction} />;
  return <>{children}</>;
}

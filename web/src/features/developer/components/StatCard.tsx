import { formatNumber } from '@afrofx/shared';
import { Card } from '../../../components/Card';

interface StatCardProps {
  label: string;
  value: number | undefined;
  hint: string;
  testId: string;
}

export function StatCard({ label, value, hint, testId }: StatCardProps) {
  return (
    <Card className="p-5">
      <p className="text-sm font-medium text-slate-500">{label}</p>
      <p className="mt-2 text-3xl font-bold tracking-tight text-slate-900 tabular-nums" data-testid={testId}>
        {value === undefined ? (
          <span className="inline-block h-8 w-20 animate-pulse rounded bg-slate-200 align-middle">
            <span className="sr-only">Loading</span>
          </span>
        ) : (
          formatNumber(value, 0)
        )}
      </p>
      <p className="mt-1 text-xs text-slate-500">{hint}</p>
    </Card>
  );
}

import type { Feature, Plan } from '@afrofx/shared';
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/Button';
import { EmptyState } from '../../../components/EmptyState';
import { Input } from '../../../components/Input';
import { FEATURE_TITLE_MAX_LENGTH, featureTitleError } from '../plan-form-validation';

interface PlanFeaturesProps {
  plan: Plan;
  /** Resolves true once the feature is saved, so the field can be cleared for the next one. */
  onAdd: (title: string) => Promise<boolean>;
  onRemove: (feature: Feature) => void;
  isAdding: boolean;
  /** The feature being removed: only its row shows the loading state. */
  removingId: string | null;
  onClose: () => void;
}

/** A plan's features: view them, remove one, add another. */
export function PlanFeatures({ plan, onAdd, onRemove, isAdding, removingId, onClose }: PlanFeaturesProps) {
  const [title, setTitle] = useState('');
  const [error, setError] = useState<string>();

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const problem = featureTitleError(title);
    setError(problem);
    if (problem) return;
    if (await onAdd(title.trim())) setTitle('');
  };

  return (
    <div className="space-y-5">
      {plan.features.length ? (
        <ul className="divide-y divide-slate-100 rounded-xl ring-1 ring-slate-200" aria-label="Features">
          {plan.features.map((feature) => (
            <li key={feature._id} className="flex items-center justify-between gap-3 py-2 pr-2 pl-4">
              <span className="min-w-0 text-sm break-words text-slate-800">{feature.title}</span>
              <Button
                variant="ghost-danger"
                size="sm"
                isLoading={removingId === feature._id}
                onClick={() => onRemove(feature)}
                aria-label={`Remove ${feature.title}`}
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      ) : (
        <div className="rounded-xl ring-1 ring-slate-200">
          <EmptyState message="No features added." description="Features are listed on the plan's card." />
        </div>
      )}
      <form
        noValidate
        onSubmit={(event) => void submit(event)}
        className="flex flex-col gap-3 sm:flex-row sm:items-start"
      >
        <Input
          label="Feature title"
          autoComplete="off"
          placeholder="Daily rates history"
          maxLength={FEATURE_TITLE_MAX_LENGTH}
          value={title}
          error={error}
          onChange={(event) => setTitle(event.target.value)}
          containerClassName="flex-1"
        />
        <Button type="submit" isLoading={isAdding} className="sm:mt-7 sm:h-11">
          Add feature
        </Button>
      </form>
      <div className="flex justify-end border-t border-slate-100 pt-4">
        <Button variant="secondary" onClick={onClose}>
          Done
        </Button>
      </div>
    </div>
  );
}

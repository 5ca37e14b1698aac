import { formatDateTime, type App } from '@afrofx/shared';
import { Pill } from '../../../components/Pill';
import { Spinner } from '../../../components/Spinner';
import { cn } from '../../../lib/cn';

interface AppListProps {
  apps: ReadonlyArray<App>;
  currentAppId: string | null;
  /** The app being opened, while the list waits before leaving. */
  openingAppId: string | null;
  onPick: (app: App) => void;
}

function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  return (
    words
      .slice(0, 2)
      .map((word) => word[0]?.toUpperCase())
      .join('') || '?'
  );
}

export function AppList({ apps, currentAppId, openingAppId, onPick }: AppListProps) {
  return (
    <ul className="divide-y divide-slate-100">
      {apps.map((app) => {
        const opening = app._id === openingAppId;
        return (
          <li key={app._id}>
            <button
              type="button"
              onClick={() => onPick(app)}
              disabled={openingAppId !== null}
              aria-busy={opening || undefined}
              className={cn(
                'group flex w-full items-center gap-4 px-4 py-4 text-left transition-colors hover:bg-slate-50 focus-visible:-outline-offset-2 disabled:cursor-default sm:px-5',
                opening && 'bg-brand-50/60',
              )}
            >
              <span
                className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-brand-900 text-sm font-bold text-gold-300"
                aria-hidden="true"
              >
                {initials(app.name)}
              </span>
              <span className="min-w-0 flex-1">
                <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
                  <span className="font-semibold break-words text-slate-900">{app.name}</span>
                  {app._id === currentAppId && !opening && <Pill tone="green">Current</Pill>}
                </span>
                <span className="mt-0.5 block text-xs text-slate-500 tabular-nums">
                  Created {formatDateTime(app.createdAt)}
                </span>
              </span>
              {opening ? (
                <span className="inline-flex items-center gap-2 text-sm font-medium text-brand-700">
                  <Spinner label={`Opening ${app.name}`} />
                  <span aria-hidden="true">Opening…</span>
                </span>
              ) : (
                <svg
                  className="size-5 shrink-0 text-slate-400 transition-transform group-hover:translate-x-0.5 group-hover:text-slate-600"
                  viewBox="0 0 20 20"
                  fill="currentColor"
                  aria-hidden="true"
                >
                  <path
                    fillRule="evenodd"
                    d="M8.22 5.22a.75.75 0 0 1 1.06 0l4.25 4.25a.75.75 0 0 1 0 1.06l-4.25 4.25a.75.75 0 0 1-1.06-1.06L11.94 10 8.22 6.28a.75.75 0 0 1 0-1.06Z"
                  />
                </svg>
              )}
            </button>
          </li>
        );
      })}
    </ul>
  );
}

import type { RequestLogEntry, Subscription } from '@afrofx/shared';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { createStore } from '../store/store';
import { DEVELOPER_SESSION_KEY } from '../lib/session';

export function signInAsDeveloper(): void {
  window.localStorage.setItem(
    DEVELOPER_SESSION_KEY,
    JSON.stringify({ userData: { first_name: 'Ada', last_name: 'Okafor' } }),
  );
}

function Location() {
  const { pathname, search } = useLocation();
  return <p data-testid="location">{pathname + search}</p>;
}

/** Renders `element` at `path` (matched by `pattern`) with a store and a router, and shows the current location. */
export function renderAt(path: string, pattern: string, element: ReactNode) {
  return render(
    <Provider store={createStore()}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path={pattern} element={element} />
          <Route path="*" element={null} />
        </Routes>
        <Location />
      </MemoryRouter>
    </Provider>,
  );
}

const DAY_MS = 86_400_000;

/** A subscription as the server sends it, expiring `daysLeft` days after `now`. */
export function makeSubscription(
  overrides: Partial<Subscription> = {},
  now = new Date('2026-03-10T12:00:00Z'),
  daysLeft = 200,
): Subscription {
  return {
    _id: 'sub-1',
    plan: { _id: 'plan-growth', name: 'Growth' },
    app: { _id: 'app-1', name: 'Remit' },
    status: 'active',
    processedRequest: 1200,
    limit: 100000,
    amount: 480,
    startsAt: new Date(now.getTime() - 100 * DAY_MS).toISOString(),
    expireAt: new Date(now.getTime() + daysLeft * DAY_MS).toISOString(),
    lastIncrement: now.toISOString(),
    createdAt: new Date(now.getTime() - 100 * DAY_MS).toISOString(),
    ...overrides,
  };
}

export function makeRequestLog(count: number): RequestLogEntry[] {
  return Array.from({ length: count }, (_, index) => ({
    _id: String(index + 1),
    host: 'api.afrofx.local',
    agent: 'curl/8.5.0',
    ipAddress: `102.89.0.${index + 1}`,
    originalUrl: `/v1/rates?page=${index + 1}`,
    status: 200,
    latency: 4.5,
    count: 1,
    createdAt: new Date(Date.UTC(2026, 2, 10, 12, 0, index)).toISOString(),
  }));
}

import type { App } from '@afrofx/shared';
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderAt } from '../../../test/developer';
import { readCurrentApp, useCurrentApp } from '../current-app';
import { OPEN_APP_DELAY_MS, useOpenApp } from '../use-open-app';
import { AppList } from './AppList';

const apps: App[] = [
  {
    _id: 'app-2',
    name: 'Checkout pricing',
    user: { first_name: 'Ada', last_name: 'Okafor', email: 'ada@example.com' },
    createdAt: '2026-03-10T12:00:00.000Z',
  },
  {
    _id: 'app-1',
    name: 'Remit',
    user: { first_name: 'Ada', last_name: 'Okafor', email: 'ada@example.com' },
    createdAt: '2026-03-01T12:00:00.000Z',
  },
];

function Picker() {
  const { openingAppId, openApp } = useOpenApp();
  const current = useCurrentApp();
  return (
    <AppList apps={apps} currentAppId={current?._id ?? null} openingAppId={openingAppId} onPick={openApp} />
  );
}

describe('picking an app', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('stores it as the current app at once and opens the dashboard after a 1-second pause', async () => {
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    renderAt('/developer/apps', '/developer/apps', <Picker />);

    await user.click(screen.getByRole('button', { name: /Remit/ }));
    expect(readCurrentApp()).toEqual({ _id: 'app-1', name: 'Remit' });
    const remit = screen.getByRole('button', { name: /Remit/ });
    expect(remit).toHaveAttribute('aria-busy', 'true');
    expect(remit).toHaveTextContent('Opening…');
    expect(screen.getByRole('button', { name: /Checkout pricing/ })).toBeDisabled();

    act(() => jest.advanceTimersByTime(OPEN_APP_DELAY_MS - 1));
    expect(screen.getByTestId('location')).toHaveTextContent('/developer/apps');
    act(() => jest.advanceTimersByTime(1));
    expect(screen.getByTestId('location')).toHaveTextContent('/developer/home');
  });

  it('marks the current app', () => {
    window.sessionStorage.setItem(
      'afrofx-current-app',
      JSON.stringify({ _id: 'app-2', name: 'Checkout pricing' }),
    );
    renderAt('/developer/apps', '/developer/apps', <Picker />);
    expect(screen.getByRole('button', { name: /Checkout pricing/ })).toHaveTextContent('Current');
    expect(screen.getByRole('button', { name: /Remit/ })).not.toHaveTextContent('Current');
  });
});

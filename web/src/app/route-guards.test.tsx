import { render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes } from 'react-router';
import { CurrentAppRoute } from '../features/developer/components/CurrentAppRoute';
import { saveCurrentApp } from '../features/developer/current-app';
import { ADMIN_SESSION_KEY, DEVELOPER_SESSION_KEY } from '../lib/session';
import {
  RedirectSignedInAdmin,
  RedirectSignedInDeveloper,
  RequireAdmin,
  RequireDeveloper,
} from './route-guards';
import { AppRoutes } from './router';
import { createStore } from '../store/store';

function renderApp(path: string) {
  render(
    <Provider store={createStore()}>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
      </MemoryRouter>
    </Provider>,
  );
}

function renderGuarded(path: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route
          path="/admin/login"
          element={
            <RedirectSignedInAdmin>
              <p>Sign-in form</p>
            </RedirectSignedInAdmin>
          }
        />
        <Route
          path="/admin/rates"
          element={
            <RequireAdmin>
              <p>Rates screen</p>
            </RequireAdmin>
          }
        />
        <Route path="/admin/emails" element={<p>Emails screen</p>} />
      </Routes>
    </MemoryRouter>,
  );
}

const signInAsAdmin = () =>
  window.localStorage.setItem(
    ADMIN_SESSION_KEY,
    JSON.stringify({ userData: { email: 'admin@example.com' } }),
  );

describe('admin route guards', () => {
  it.each(['/admin/rates', '/admin/emails', '/admin/users', '/admin'])(
    'sends a visitor without an admin session from %s to /admin/login',
    async (path) => {
      renderApp(path);
      expect(await screen.findByRole('heading', { name: 'Admin sign in' })).toBeInTheDocument();
    },
  );

  it('opens a protected admin route for a stored admin session', () => {
    signInAsAdmin();
    renderGuarded('/admin/rates');
    expect(screen.getByText('Rates screen')).toBeInTheDocument();
  });

  it('does not count a developer session as an admin one', () => {
    window.localStorage.setItem('afrofx', JSON.stringify({ userData: { first_name: 'A', last_name: 'B' } }));
    renderGuarded('/admin/rates');
    expect(screen.getByText('Sign-in form')).toBeInTheDocument();
  });

  it('sends a signed-in admin from the sign-in page to /admin/emails', () => {
    signInAsAdmin();
    renderGuarded('/admin/login');
    expect(screen.getByText('Emails screen')).toBeInTheDocument();
  });
});

const signInAsDeveloper = () =>
  window.localStorage.setItem(
    DEVELOPER_SESSION_KEY,
    JSON.stringify({ userData: { first_name: 'Ada', last_name: 'Okafor' } }),
  );

function renderDeveloperGuarded(path: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        {['/developer/signin', '/developer/signup'].map((guarded) => (
          <Route
            key={guarded}
            path={guarded}
            element={
              <RedirectSignedInDeveloper>
                <p>Signed-out form</p>
              </RedirectSignedInDeveloper>
            }
          />
        ))}
        <Route
          path="/developer/home"
          element={
            <RequireDeveloper>
              <p>Dashboard screen</p>
            </RequireDeveloper>
          }
        />
        <Route
          path="/developer/api"
          element={<CurrentAppRoute page={({ app }) => <p>API keys of {app.name}</p>} />}
        />
        <Route path="/developer/apps" element={<p>Apps screen</p>} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('developer route guards', () => {
  it.each([
    '/developer',
    '/developer/apps',
    '/developer/home',
    '/developer/api',
    '/developer/request',
    '/developer/plans',
    '/developer/change_password',
  ])('sends a visitor without a developer session from %s to /developer/signin', async (path) => {
    renderApp(path);
    expect(await screen.findByRole('heading', { name: 'Sign in to AfroFX' })).toBeInTheDocument();
  });

  it('opens a protected developer route for a stored developer session', () => {
    signInAsDeveloper();
    renderDeveloperGuarded('/developer/home');
    expect(screen.getByText('Dashboard screen')).toBeInTheDocument();
  });

  it('does not count an admin session as a developer one', () => {
    signInAsAdmin();
    renderDeveloperGuarded('/developer/home');
    expect(screen.getByText('Signed-out form')).toBeInTheDocument();
  });

  it.each(['/developer/signin', '/developer/signup'])(
    'sends a signed-in developer from %s to /developer/apps',
    (path) => {
      signInAsDeveloper();
      renderDeveloperGuarded(path);
      expect(screen.getByText('Apps screen')).toBeInTheDocument();
    },
  );

  it('sends a developer with no current app from a page about one app to /developer/apps', () => {
    signInAsDeveloper();
    renderDeveloperGuarded('/developer/api');
    expect(screen.getByText('Apps screen')).toBeInTheDocument();
  });

  it('opens a page about one app for the current app', () => {
    signInAsDeveloper();
    saveCurrentApp({ _id: 'app-1', name: 'Remit' });
    renderDeveloperGuarded('/developer/api');
    expect(screen.getByText('API keys of Remit')).toBeInTheDocument();
  });

  it('leaves the account links open to everyone', async () => {
    renderApp('/developer/request_password_reset');
    expect(await screen.findByRole('heading', { name: 'Reset your password' })).toBeInTheDocument();
  });
});

describe('public routes', () => {
  it('says that an unknown page does not exist, with a way home', () => {
    renderApp('/no/such/page');
    expect(screen.getByRole('heading', { name: 'This page does not exist.' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
  });

  it('has the legal pages', async () => {
    renderApp('/company/terms_of_use');
    expect(await screen.findByRole('heading', { level: 1, name: 'Terms of use' })).toBeInTheDocument();
  });
});

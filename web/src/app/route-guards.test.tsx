import { render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes } from 'react-router';
import { ADMIN_SESSION_KEY } from '../lib/session';
import { RedirectSignedInAdmin, RequireAdmin } from './route-guards';
import { AppRoutes } from './router';
import { createStore } from './store';

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
  window.sessionStorage.setItem(
    ADMIN_SESSION_KEY,
    JSON.stringify({ token: 'admin-token', userData: { email: 'admin@example.com' } }),
  );

describe('admin route guards', () => {
  it.each(['/admin/rates', '/admin/emails', '/admin/users', '/admin'])(
    'sends a visitor without an admin session from %s to /admin/login',
    (path) => {
      renderApp(path);
      expect(screen.getByRole('heading', { name: 'Admin sign in' })).toBeInTheDocument();
    },
  );

  it('opens a protected admin route for a stored admin session', () => {
    signInAsAdmin();
    renderGuarded('/admin/rates');
    expect(screen.getByText('Rates screen')).toBeInTheDocument();
  });

  it('does not count a developer session as an admin one', () => {
    window.sessionStorage.setItem(
      'afrofx',
      JSON.stringify({ token: 'dev', userData: { first_name: 'A', last_name: 'B' } }),
    );
    renderGuarded('/admin/rates');
    expect(screen.getByText('Sign-in form')).toBeInTheDocument();
  });

  it('sends a signed-in admin from the sign-in page to /admin/emails', () => {
    signInAsAdmin();
    renderGuarded('/admin/login');
    expect(screen.getByText('Emails screen')).toBeInTheDocument();
  });
});

describe('public routes', () => {
  it('says that an unknown page does not exist, with a way home', () => {
    renderApp('/no/such/page');
    expect(screen.getByRole('heading', { name: 'This page does not exist.' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
  });

  it('has the legal pages', () => {
    renderApp('/company/terms_of_use');
    expect(screen.getByRole('heading', { level: 1, name: 'Terms of use' })).toBeInTheDocument();
  });
});

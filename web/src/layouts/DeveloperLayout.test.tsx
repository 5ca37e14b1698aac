import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderAt, signInAsDeveloper } from '../test/developer';
import { DeveloperLayout } from './DeveloperLayout';

const renderShell = (path: string) => {
  signInAsDeveloper();
  renderAt(path, '/developer/*', <DeveloperLayout />);
  return within(screen.getByRole('navigation', { name: 'Developer sections' }));
};

describe('developer sidebar', () => {
  it('has the six entries of SPEC §2, Webhooks, Receipts, and greets the developer by name', () => {
    const nav = renderShell('/developer/home');
    expect(nav.getAllByRole('link').map((link) => link.textContent)).toEqual([
      'Home',
      'Request',
      'Plans',
      'API Keys',
      'Webhooks',
      'Receipts',
      'Your Apps',
      'Password',
    ]);
    expect(screen.getByRole('complementary', { name: 'Developer' })).toHaveTextContent('Hello, Ada Okafor');
  });

  it.each([
    ['/developer/home', 'Home'],
    ['/developer/request', 'Request'],
    ['/developer/plans', 'Plans'],
    ['/developer/api', 'API Keys'],
    ['/developer/webhooks', 'Webhooks'],
    ['/developer/receipts', 'Receipts'],
    ['/developer/change_password', 'Password'],
  ])('highlights the entry of %s', (path, label) => {
    const nav = renderShell(path);
    expect(nav.getByRole('link', { name: label })).toHaveAttribute('aria-current', 'page');
    expect(nav.getAllByRole('link').filter((link) => link.hasAttribute('aria-current'))).toHaveLength(1);
  });

  it('offers a skip link first, which moves focus to the main content', async () => {
    renderShell('/developer/home');
    await userEvent.tab();
    const skip = screen.getByRole('link', { name: 'Skip to main content' });
    expect(skip).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(screen.getByRole('main')).toHaveFocus();
  });

  it('never highlights Your Apps, even on /developer/apps', () => {
    const nav = renderShell('/developer/apps');
    expect(nav.getByRole('link', { name: 'Your Apps' })).toHaveAttribute('href', '/developer/apps');
    expect(nav.getByRole('link', { name: 'Your Apps' })).not.toHaveAttribute('aria-current');
    expect(nav.getAllByRole('link').filter((link) => link.hasAttribute('aria-current'))).toHaveLength(0);
  });

  it('opens the API documentation in a new tab', () => {
    renderShell('/developer/apps');
    const docs = screen.getByRole('link', { name: /API documentation/ });
    expect(docs).toHaveAttribute('href', '/docs');
    expect(docs).toHaveAttribute('target', '_blank');
  });

  it('says when no app is picked, with a way to pick one', () => {
    renderShell('/developer/apps');
    expect(screen.getByTestId('current-app')).toHaveTextContent('No app selected');
    expect(screen.getByRole('link', { name: 'Choose an app' })).toHaveAttribute('href', '/developer/apps');
  });

  it('gates demo and support behind a subscription when no app is picked', async () => {
    renderShell('/developer/apps');
    await userEvent.click(screen.getByRole('button', { name: 'E-mail support' }));
    expect(screen.getByRole('dialog', { name: 'Exclusive Support and Demos!' })).toBeInTheDocument();
  });

  it("asks before logging out, then forgets the account and the tab's selections and goes to sign-in", async () => {
    renderShell('/developer/change_password');
    window.sessionStorage.setItem('afrofx-selection', 'kept until logout');

    await userEvent.click(screen.getByRole('button', { name: 'Log out' }));
    const dialog = screen.getByRole('dialog', { name: 'Log out?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(window.localStorage.getItem('afrofx')).not.toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Log out' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Log out' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/developer/signin'));
    expect(window.sessionStorage.length).toBe(0);
    expect(window.localStorage.getItem('afrofx')).toBeNull();
  });
});

import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderAt } from '../test/developer';
import { PublicLayout } from './PublicLayout';

const menuButton = () => screen.getByRole('button', { name: 'Menu' });
const mobileMenu = () => document.getElementById('mobile-menu');

async function openMenu() {
  renderAt('/api', '/*', <PublicLayout />);
  await userEvent.click(menuButton());
  expect(menuButton()).toHaveAttribute('aria-expanded', 'true');
  expect(mobileMenu()).toBeInTheDocument();
}

describe('the public site menu on a phone', () => {
  it('closes on a tap outside it', async () => {
    await openMenu();
    await userEvent.click(screen.getByRole('main'));
    expect(mobileMenu()).not.toBeInTheDocument();
    expect(menuButton()).toHaveAttribute('aria-expanded', 'false');
  });

  it('stays open on a tap inside it, and the button closes it', async () => {
    await openMenu();
    await userEvent.click(mobileMenu()!);
    expect(mobileMenu()).toBeInTheDocument();
    await userEvent.click(menuButton());
    expect(mobileMenu()).not.toBeInTheDocument();
  });

  it('closes on Escape', async () => {
    await openMenu();
    await userEvent.keyboard('{Escape}');
    expect(mobileMenu()).not.toBeInTheDocument();
  });

  it('closes when one of its links is followed', async () => {
    await openMenu();
    await userEvent.click(within(mobileMenu()!).getByRole('link', { name: 'Home' }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
    expect(mobileMenu()).not.toBeInTheDocument();
  });
});

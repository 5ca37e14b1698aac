import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderAt } from '../../../test/developer';
import { SupportActions } from './SupportActions';

const renderActions = (hasSubscription: boolean | undefined) =>
  renderAt(
    '/developer/home',
    '/developer/*',
    <SupportActions hasSubscription={hasSubscription} supportEmail="help@afrofx.example" />,
  );

describe('support and demo actions', () => {
  it.each(['Book a demo', 'E-mail support'])(
    "without a subscription, '%s' opens the subscribers-only dialog",
    async (action) => {
      renderActions(false);
      await userEvent.click(screen.getByRole('button', { name: action }));
      const dialog = screen.getByRole('dialog', { name: 'Exclusive Support and Demos!' });
      expect(dialog).toHaveAccessibleDescription(/reserved for subscribers/);
    },
  );

  it('leads from the dialog to the plans', async () => {
    renderActions(false);
    await userEvent.click(screen.getByRole('button', { name: 'Book a demo' }));
    await userEvent.click(screen.getByRole('link', { name: 'See plans' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/developer/plans?tab=plans');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('can be dismissed with its button or Escape', async () => {
    renderActions(false);
    await userEvent.click(screen.getByRole('button', { name: 'Book a demo' }));
    await userEvent.click(screen.getByRole('button', { name: 'Not now' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'E-mail support' }));
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/developer/home');
  });

  it('with a subscription, books a 30-minute demo and mails the configured support address with the fixed subject', () => {
    renderActions(true);
    const demo = screen.getByRole('link', { name: /Book a demo/ });
    expect(demo).toHaveAttribute('href', 'https://calendly.com/afrofx/30min');
    expect(demo).toHaveAttribute('target', '_blank');
    expect(screen.getByRole('link', { name: 'E-mail support' })).toHaveAttribute(
      'href',
      'mailto:help@afrofx.example?subject=Hi%2C%20I%20need%20help%20with%20my%20account.',
    );
  });

  it('waits while the subscription is being checked', () => {
    renderActions(undefined);
    expect(screen.getByRole('button', { name: 'Book a demo' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'E-mail support' })).toBeDisabled();
  });
});

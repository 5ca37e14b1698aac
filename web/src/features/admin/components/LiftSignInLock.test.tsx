import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { Toaster } from '../../../components/Toaster';
import { createStore } from '../../../store/store';
import { LiftSignInLock } from './LiftSignInLock';

function renderLift() {
  render(
    <Provider store={createStore()}>
      <LiftSignInLock />
      <Toaster />
    </Provider>,
  );
}

describe('Lift Sign-in Lock', () => {
  it('asks for a valid address before asking to confirm', async () => {
    renderLift();
    await userEvent.click(screen.getByRole('button', { name: 'Lift Sign-in Lock' }));
    await userEvent.type(screen.getByLabelText('E-mail address'), 'not-an-address{Enter}');
    expect(screen.getByLabelText('E-mail address')).toHaveAccessibleDescription(
      'Enter a valid e-mail address.',
    );
    expect(screen.queryByRole('dialog', { name: 'Lift this sign-in lock?' })).not.toBeInTheDocument();
  });

  it('names the address in the confirmation, and keeps it open with the error when the call fails', async () => {
    renderLift();
    await userEvent.click(screen.getByRole('button', { name: 'Lift Sign-in Lock' }));
    await userEvent.type(screen.getByLabelText('E-mail address'), '  ama@example.com {Enter}');
    const confirm = screen.getByRole('dialog', { name: 'Lift this sign-in lock?' });
    expect(confirm).toHaveAccessibleDescription(/ama@example\.com are forgotten/);

    // Component tests have no network: the call fails as a network error.
    await userEvent.click(screen.getByRole('button', { name: 'Lift Lock' }));
    expect(await screen.findByText('Network Error')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Lift this sign-in lock?' })).toBeInTheDocument();
  });

  it('Cancel forgets the address', async () => {
    renderLift();
    await userEvent.click(screen.getByRole('button', { name: 'Lift Sign-in Lock' }));
    await userEvent.type(screen.getByLabelText('E-mail address'), 'ama@example.com{Enter}');
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await userEvent.click(screen.getByRole('button', { name: 'Lift Sign-in Lock' }));
    expect(screen.getByLabelText('E-mail address')).toHaveValue('');
  });
});

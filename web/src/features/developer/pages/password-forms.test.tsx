import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderAt, signInAsDeveloper } from '../../../test/developer';
import { ChangePasswordPage } from './ChangePasswordPage';
import { ResetPasswordPage } from './ResetPasswordPage';

let fetchSpy: jest.SpyInstance;

beforeEach(() => {
  fetchSpy = jest.spyOn(globalThis, 'fetch');
});

afterEach(() => {
  fetchSpy.mockRestore();
});

describe('reset password form', () => {
  const renderReset = () =>
    renderAt(
      '/developer/reset_password/code-1234567890',
      '/developer/reset_password/:code',
      <ResetPasswordPage />,
    );

  it("says 'Password must match!' when the two entries differ, and sends nothing", async () => {
    renderReset();
    await userEvent.type(screen.getByLabelText('New password'), 'correct-horse-1');
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'correct-horse-2');
    await userEvent.click(screen.getByRole('button', { name: 'Reset password' }));

    expect(screen.getByLabelText('Confirm new password')).toHaveAccessibleDescription('Password must match!');
    // The one call is the link check made on arrival; no reset was sent.
    expect(fetchSpy).toHaveBeenCalledTimes(1);
  });

  it('asks for a long enough password', async () => {
    renderReset();
    await userEvent.type(screen.getByLabelText('New password'), 'short');
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'short');
    await userEvent.click(screen.getByRole('button', { name: 'Reset password' }));

    expect(screen.getByText('Password must be at least 10 characters.')).toBeInTheDocument();
    expect(fetchSpy).toHaveBeenCalledTimes(1);
  });

  it('has show/hide toggles and a way to ask for a new link', () => {
    renderReset();
    expect(screen.getAllByRole('button', { name: 'Show password' })).toHaveLength(2);
    expect(screen.getByRole('link', { name: 'Send a new one' })).toHaveAttribute(
      'href',
      '/developer/request_password_reset',
    );
  });
});

describe('change password form', () => {
  const renderChange = () => {
    signInAsDeveloper();
    renderAt('/developer/change_password', '/developer/change_password', <ChangePasswordPage />);
  };

  it("says 'Passwords can not be the same.' when the new password is the current one, and sends nothing", async () => {
    renderChange();
    await userEvent.type(screen.getByLabelText('Current password'), 'afrofx-developer');
    await userEvent.type(screen.getByLabelText('New password'), 'afrofx-developer');
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'afrofx-developer');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));

    expect(screen.getByLabelText('New password')).toHaveAccessibleDescription(
      'Passwords can not be the same.',
    );
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it("says 'Password must match!' when the confirmation differs", async () => {
    renderChange();
    await userEvent.type(screen.getByLabelText('Current password'), 'afrofx-developer');
    await userEvent.type(screen.getByLabelText('New password'), 'a-new-password');
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'another-password');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));

    expect(screen.getByLabelText('Confirm new password')).toHaveAccessibleDescription('Password must match!');
    expect(fetchSpy).not.toHaveBeenCalled();
  });
});

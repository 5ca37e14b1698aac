import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AddAdminForm } from './AddAdminForm';

function renderForm() {
  const onSubmit = jest.fn();
  render(<AddAdminForm onSubmit={onSubmit} isSubmitting={false} onCancel={() => undefined} />);
  return onSubmit;
}

describe('Add Admin form', () => {
  it('requires an e-mail address and a password, and sends nothing without them', async () => {
    const onSubmit = renderForm();
    await userEvent.click(screen.getByRole('button', { name: 'Add Admin' }));
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('Password is required.');
    expect(screen.getByLabelText('E-mail address')).toHaveAccessibleDescription(/./);
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('refuses a malformed address', async () => {
    const onSubmit = renderForm();
    await userEvent.type(screen.getByLabelText('E-mail address'), 'not-an-address');
    await userEvent.type(screen.getByLabelText('Password'), 'violet-granite-harbour-42');
    await userEvent.click(screen.getByRole('button', { name: 'Add Admin' }));
    expect(screen.getByLabelText('E-mail address')).toHaveAccessibleDescription(/./);
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('sends the trimmed address with the password', async () => {
    const onSubmit = renderForm();
    await userEvent.type(screen.getByLabelText('E-mail address'), '  kofi@example.com ');
    await userEvent.type(screen.getByLabelText('Password'), 'violet-granite-harbour-42');
    await userEvent.click(screen.getByRole('button', { name: 'Add Admin' }));
    expect(onSubmit).toHaveBeenCalledWith({
      email: 'kofi@example.com',
      password: 'violet-granite-harbour-42',
    });
  });
});

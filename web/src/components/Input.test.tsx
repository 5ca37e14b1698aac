import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Input } from './Input';

describe('Input', () => {
  it('is required by default, with the default maximum length of 524288', () => {
    render(<Input label="Name" />);
    const input = screen.getByLabelText('Name');
    expect(input).toBeRequired();
    expect(input).toHaveAttribute('maxLength', '524288');
  });

  it('takes a given maximum length and can be optional', () => {
    render(<Input label="Nickname" maxLength={20} required={false} />);
    const input = screen.getByLabelText('Nickname');
    expect(input).not.toBeRequired();
    expect(input).toHaveAttribute('maxLength', '20');
  });

  it('shows and hides a password with its toggle', async () => {
    render(<Input label="Password" type="password" />);
    const input = screen.getByLabelText('Password');
    expect(input).toHaveAttribute('type', 'password');

    await userEvent.click(screen.getByRole('button', { name: 'Show password' }));
    expect(input).toHaveAttribute('type', 'text');
    expect(screen.getByRole('button', { name: 'Hide password' })).toHaveAttribute('aria-pressed', 'true');

    await userEvent.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(input).toHaveAttribute('type', 'password');
  });

  it('has no toggle for other input types', () => {
    render(<Input label="E-mail" type="email" />);
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });

  it('ties an error message to the field', () => {
    render(<Input label="E-mail" error="E-mail is required." />);
    const input = screen.getByLabelText('E-mail');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('E-mail is required.');
  });
});

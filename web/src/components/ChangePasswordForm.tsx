import { useState, type FormEvent } from 'react';
import { PASSWORD_RULE } from '@afrofx/shared';
import { showToast } from '../lib/toast';
import {
  confirmationError,
  newPasswordError,
  PASSWORD_MAX_LENGTH,
  samePasswordError,
  serverPasswordError,
} from '../lib/password-rules';
import { Button } from './Button';
import { Input } from './Input';

interface PasswordForm {
  oldPassword: string;
  newPassword: string;
  confirmation: string;
}

type PasswordErrors = Partial<Record<keyof PasswordForm, string>>;

const emptyForm: PasswordForm = { oldPassword: '', newPassword: '', confirmation: '' };

interface ChangePasswordFormProps {
  /** The console's change-password call; its answer's message is toasted on success. */
  changePassword: (input: {
    oldPassword: string;
    newPassword: string;
  }) => Promise<{ data?: { message: string }; error?: unknown }>;
  isLoading: boolean;
}

/** SPEC §5's password change, the same for developers and admins. */
export function ChangePasswordForm({ changePassword, isLoading }: ChangePasswordFormProps) {
  const [form, setForm] = useState(emptyForm);
  const [errors, setErrors] = useState<PasswordErrors>({});

  const field = (name: keyof PasswordForm) => ({
    name,
    type: 'password',
    maxLength: PASSWORD_MAX_LENGTH,
    value: form[name],
    error: errors[name],
    onChange: (event: { target: { value: string } }) => setForm({ ...form, [name]: event.target.value }),
  });

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found: PasswordErrors = {
      oldPassword: form.oldPassword ? undefined : 'Current password is required.',
      newPassword:
        samePasswordError(form.oldPassword, form.newPassword) ?? newPasswordError(form.newPassword),
      confirmation: confirmationError(form.newPassword, form.confirmation),
    };
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    // A wrong current password is refused with the server's message, toasted by the API layer.
    const result = await changePassword({ oldPassword: form.oldPassword, newPassword: form.newPassword });
    if (!result.data) {
      const message = serverPasswordError(result);
      // A refused current password belongs under that field, not under the new one.
      return setErrors(
        message && /current password/i.test(message) ? { oldPassword: message } : { newPassword: message },
      );
    }
    // The change ended every other session of the account; the answer renewed this one's cookie.
    showToast(result.data.message, 'success');
    setForm(emptyForm);
  };

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-5">
      <Input label="Current password" autoComplete="current-password" {...field('oldPassword')} />
      <div>
        <Input label="New password" autoComplete="new-password" {...field('newPassword')} />
        {!errors.newPassword && (
          <p className="mt-1.5 text-xs text-slate-500">
            {PASSWORD_RULE} It must differ from the current one.
          </p>
        )}
      </div>
      <Input label="Confirm new password" autoComplete="new-password" {...field('confirmation')} />
      <div className="flex justify-end border-t border-slate-100 pt-5">
        <Button type="submit" isLoading={isLoading}>
          Change password
        </Button>
      </div>
    </form>
  );
}

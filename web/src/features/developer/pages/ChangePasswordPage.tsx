import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { PASSWORD_RULE } from '@afrofx/shared';
import { Button, buttonClasses } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { Input } from '../../../components/Input';
import { PageHeader } from '../../../components/PageHeader';
import { showToast } from '../../../lib/toast';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useChangePasswordMutation } from '../developer-api';
import {
  confirmationError,
  newPasswordError,
  PASSWORD_MAX_LENGTH,
  samePasswordError,
  serverPasswordError,
} from '../password-rules';

interface PasswordForm {
  oldPassword: string;
  newPassword: string;
  confirmation: string;
}

type PasswordErrors = Partial<Record<keyof PasswordForm, string>>;

const emptyForm: PasswordForm = { oldPassword: '', newPassword: '', confirmation: '' };

export function ChangePasswordPage() {
  useDocumentTitle('Password');
  const [changePassword, { isLoading }] = useChangePasswordMutation();
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
      // A refused current password belongs under that field, not under the new one (issue 25).
      return setErrors(
        message && /current password/i.test(message) ? { oldPassword: message } : { newPassword: message },
      );
    }
    // The change ended every other session of the account; the answer renewed this one's cookie.
    showToast(result.data.message, 'success');
    setForm(emptyForm);
  };

  return (
    <>
      <PageHeader
        title="Password"
        description="Change the password you sign in to the developer portal with."
      />
      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,36rem)_minmax(0,20rem)]">
        <Card className="p-5 sm:p-8">
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
        </Card>
        <Card className="p-5 sm:p-6">
          <h2 className="font-semibold text-slate-900">Forgot the current one?</h2>
          <p className="mt-1 text-sm text-slate-600">
            We can e-mail you a link to choose a new password without it.
          </p>
          <Link to="/developer/request_password_reset" className={buttonClasses('secondary', 'sm', 'mt-4')}>
            Send me a reset link
          </Link>
        </Card>
      </div>
    </>
  );
}

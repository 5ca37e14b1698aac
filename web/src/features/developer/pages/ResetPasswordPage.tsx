import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { PASSWORD_RULE } from '@afrofx/shared';
import { AuthScreen, authFooterLinkClasses } from '../../../components/AuthScreen';
import { Button } from '../../../components/Button';
import { ErrorState } from '../../../components/ErrorState';
import { Input } from '../../../components/Input';
import { showToast } from '../../../lib/toast';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useCheckResetLinkQuery, useResetPasswordMutation } from '../developer-api';
import {
  confirmationError,
  newPasswordError,
  PASSWORD_MAX_LENGTH,
  serverPasswordError,
} from '../../../lib/password-rules';
import { paths } from '../../../lib/paths';

interface ResetErrors {
  password?: string;
  confirmation?: string;
}

export function ResetPasswordPage() {
  useDocumentTitle('Choose a new password');
  const { code = '' } = useParams();
  const navigate = useNavigate();
  const [resetPassword, { isLoading }] = useResetPasswordMutation();
  // A used or expired link is told on arrival, not after the new password was typed twice.
  const linkCheck = useCheckResetLinkQuery(code);
  // Only the server's refusal hides the form: when the check itself fails, the reset answers for the link.
  const refusal =
    linkCheck.error && 'status' in linkCheck.error && linkCheck.error.status === 400 ? linkCheck.error : null;
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [errors, setErrors] = useState<ResetErrors>({});

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found: ResetErrors = {
      password: newPasswordError(password),
      confirmation: confirmationError(password, confirmation),
    };
    setErrors(found);
    if (found.password || found.confirmation) return;
    // A used or expired link is refused with the server's message, toasted by the API layer.
    const result = await resetPassword({ code, password });
    if (!result.data) return setErrors({ password: serverPasswordError(result) });
    showToast(result.data.message, 'success');
    navigate(paths.developer.signin, { replace: true });
  };

  return (
    <AuthScreen
      title="Choose a new password"
      description="Type it twice. Once saved, sign in with it."
      footer={
        <p>
          Link expired?{' '}
          <Link to={paths.developer.requestPasswordReset} className={authFooterLinkClasses}>
            Send a new one
          </Link>
        </p>
      }
    >
      {refusal ? (
        <div className="mt-8">
          <ErrorState message={refusal.message} />
        </div>
      ) : (
        <form noValidate onSubmit={onSubmit} className="mt-8 space-y-5">
          <div>
            <Input
              label="New password"
              type="password"
              name="password"
              autoComplete="new-password"
              maxLength={PASSWORD_MAX_LENGTH}
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              error={errors.password}
            />
            {!errors.password && <p className="mt-1.5 text-xs text-slate-500">{PASSWORD_RULE}</p>}
          </div>
          <Input
            label="Confirm new password"
            type="password"
            name="confirmation"
            autoComplete="new-password"
            maxLength={PASSWORD_MAX_LENGTH}
            value={confirmation}
            onChange={(event) => setConfirmation(event.target.value)}
            error={errors.confirmation}
          />
          <Button type="submit" size="lg" className="w-full" isLoading={isLoading}>
            Reset password
          </Button>
        </form>
      )}
    </AuthScreen>
  );
}

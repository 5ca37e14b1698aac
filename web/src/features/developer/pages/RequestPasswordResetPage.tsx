import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { AuthScreen, authFooterLinkClasses } from '../../../components/AuthScreen';
import { Button, buttonClasses } from '../../../components/Button';
import { Input } from '../../../components/Input';
import { Notice } from '../../../components/Notice';
import { dismissErrorToasts } from '../../../lib/toast';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { emailError } from '../../../lib/validation';
import { useRequestPasswordResetMutation } from '../developer-api';
import { paths } from '../../../lib/paths';

export function RequestPasswordResetPage() {
  useDocumentTitle('Reset your password');
  const [requestReset, { isLoading }] = useRequestPasswordResetMutation();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string>();
  const [sent, setSent] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const problem = emailError(email);
    setError(problem);
    if (problem) return;
    const result = await requestReset({ email: email.trim() });
    if (!result.data) return;
    dismissErrorToasts();
    setSent(result.data.message);
  };

  const backToSignin = (
    <p>
      Remembered it?{' '}
      <Link to={paths.developer.signin} className={authFooterLinkClasses}>
        Back to sign in
      </Link>
    </p>
  );

  if (sent) {
    return (
      <AuthScreen title="Check your inbox" footer={backToSignin}>
        <Notice tone="success" role="status" className="mt-6">
          {sent}
        </Notice>
        <p className="mt-4 text-sm text-slate-600">
          The link works once. If nothing arrives in a few minutes, check your spam folder or send another.
        </p>
        <div className="mt-6 flex flex-col gap-3 sm:flex-row">
          {/* flex-1 only in a row: in the phone's column it would size the link's height from zero. */}
          <Link to={paths.developer.signin} className={buttonClasses('primary', 'lg', 'sm:flex-1')}>
            Go to sign in
          </Link>
          <button type="button" onClick={() => setSent(null)} className={buttonClasses('secondary', 'lg')}>
            Send another link
          </button>
        </div>
      </AuthScreen>
    );
  }

  return (
    <AuthScreen
      title="Reset your password"
      description="Enter the e-mail address you signed up with and we’ll send you a link to choose a new password."
      footer={backToSignin}
    >
      <form noValidate onSubmit={onSubmit} className="mt-8 space-y-5">
        <Input
          label="E-mail address"
          type="email"
          name="email"
          autoComplete="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          error={error}
        />
        <Button type="submit" size="lg" className="w-full" isLoading={isLoading}>
          Send reset link
        </Button>
      </form>
    </AuthScreen>
  );
}

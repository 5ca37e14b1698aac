import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api } from '../../../api/base-api';
import { useAppDispatch } from '../../../store/hooks';
import { AuthScreen, authFooterLinkClasses, authLinkClasses } from '../../../components/AuthScreen';
import { CredentialsForm, type Credentials } from '../../../components/CredentialsForm';
import { saveDeveloperSession } from '../../../lib/session';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { showToast } from '../../../lib/toast';
import { useResendActivationMutation, useSigninMutation } from '../developer-api';
import { paths } from '../../../lib/paths';

/** The server's refusal of an account not yet activated (accounts.service.ts). */
const NOT_ACTIVATED = /^Kindly activate your account/;

export function SigninPage() {
  useDocumentTitle('Sign in');
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const [signin, { isLoading }] = useSigninMutation();
  const [resendActivation, resend] = useResendActivationMutation();
  // The address a sign-in was refused for as not yet activated: the page then offers a fresh link.
  const [notActivated, setNotActivated] = useState<string | null>(null);

  const signIn = async (credentials: Credentials) => {
    // A refused sign-in (401, 403 not activated or disabled, 429) is toasted with the server's message.
    const result = await signin(credentials);
    setNotActivated(
      result.error && NOT_ACTIVATED.test(result.error.message ?? '') ? credentials.email : null,
    );
    if (!result.data) return;
    const { user } = result.data.data;
    dispatch(api.util.resetApiState());
    saveDeveloperSession({ userData: { first_name: user.first_name, last_name: user.last_name } });
    navigate(paths.developer.apps, { replace: true });
  };

  return (
    <AuthScreen
      title="Sign in to AfroFX"
      description="Manage your apps, API keys, plans and request logs."
      footer={
        <p>
          New to AfroFX?{' '}
          <Link to={paths.developer.signup} className={authFooterLinkClasses}>
            Create an account
          </Link>
        </p>
      }
    >
      <CredentialsForm
        onSubmit={signIn}
        isLoading={isLoading}
        passwordHint={
          <p className="mt-2 text-right text-sm">
            <Link to={paths.developer.requestPasswordReset} className={authLinkClasses}>
              Forgot your password?
            </Link>
          </p>
        }
      />
      {notActivated && (
        <p className="mt-4 text-sm">
          No activation mail?{' '}
          <button
            type="button"
            className={authLinkClasses}
            disabled={resend.isLoading}
            onClick={async () => {
              const result = await resendActivation({ email: notActivated });
              if (result.data) showToast(result.data.message, 'success');
            }}
          >
            Send a new activation link
          </button>
        </p>
      )}
    </AuthScreen>
  );
}

import { Link, useNavigate } from 'react-router';
import { api } from '../../../api/base-api';
import { useAppDispatch } from '../../../app/hooks';
import { AuthScreen, authFooterLinkClasses, authLinkClasses } from '../../../components/AuthScreen';
import { CredentialsForm, type Credentials } from '../../../components/CredentialsForm';
import { saveDeveloperSession } from '../../../lib/session';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useSigninMutation } from '../developer-api';

export function SigninPage() {
  useDocumentTitle('Sign in');
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const [signin, { isLoading }] = useSigninMutation();

  const signIn = async (credentials: Credentials) => {
    // A refused sign-in (401, 403 not activated or disabled, 429) is toasted with the server's message.
    const result = await signin(credentials);
    if (!result.data) return;
    const { user } = result.data.data;
    dispatch(api.util.resetApiState());
    saveDeveloperSession({ userData: { first_name: user.first_name, last_name: user.last_name } });
    navigate('/developer/apps', { replace: true });
  };

  return (
    <AuthScreen
      title="Sign in to AfroFX"
      description="Manage your apps, API keys, plans and request logs."
      footer={
        <p>
          New to AfroFX?{' '}
          <Link to="/developer/signup" className={authFooterLinkClasses}>
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
            <Link to="/developer/request_password_reset" className={authLinkClasses}>
              Forgot your password?
            </Link>
          </p>
        }
      />
    </AuthScreen>
  );
}

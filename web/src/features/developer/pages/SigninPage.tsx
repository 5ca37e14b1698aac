import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { api } from '../../../api/base-api';
import { useAppDispatch } from '../../../app/hooks';
import { AuthScreen, authFooterLinkClasses, authLinkClasses } from '../../../components/AuthScreen';
import { Button } from '../../../components/Button';
import { Input } from '../../../components/Input';
import { saveDeveloperSession } from '../../../lib/session';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { emailError } from '../../../lib/validation';
import { useSigninMutation } from '../developer-api';

interface SigninErrors {
  email?: string;
  password?: string;
}

export function SigninPage() {
  useDocumentTitle('Sign in');
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const [signin, { isLoading }] = useSigninMutation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<SigninErrors>({});

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found: SigninErrors = {
      email: emailError(email),
      password: password ? undefined : 'Password is required.',
    };
    setErrors(found);
    if (found.email || found.password) return;
    // A refused sign-in (401, 403 not activated or disabled, 429) is toasted with the server's message.
    const result = await signin({ email: email.trim(), password });
    if (!result.data) return;
    const { token, user } = result.data.data;
    dispatch(api.util.resetApiState());
    saveDeveloperSession({ token, userData: { first_name: user.first_name, last_name: user.last_name } });
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
      <form noValidate onSubmit={onSubmit} className="mt-8 space-y-5">
        <Input
          label="E-mail address"
          type="email"
          name="email"
          autoComplete="username"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          error={errors.email}
        />
        <div>
          <Input
            label="Password"
            type="password"
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            error={errors.password}
          />
          <p className="mt-2 text-right text-sm">
            <Link to="/developer/request_password_reset" className={authLinkClasses}>
              Forgot your password?
            </Link>
          </p>
        </div>
        <Button type="submit" size="lg" className="w-full" isLoading={isLoading}>
          Sign in
        </Button>
      </form>
    </AuthScreen>
  );
}

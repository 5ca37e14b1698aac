import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { AuthScreen } from '../../../components/AuthScreen';
import { Button } from '../../../components/Button';
import { Input } from '../../../components/Input';
import { saveAdminSession } from '../../../lib/session';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { emailError } from '../../../lib/validation';
import { useAuthenticateMutation } from '../admin-api';

interface LoginErrors {
  email?: string;
  password?: string;
}

export function AdminLoginPage() {
  useDocumentTitle('Admin sign in');
  const navigate = useNavigate();
  const [authenticate, { isLoading }] = useAuthenticateMutation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<LoginErrors>({});

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found: LoginErrors = {
      email: emailError(email),
      password: password ? undefined : 'Password is required.',
    };
    setErrors(found);
    if (found.email || found.password) return;
    const result = await authenticate({ email: email.trim(), password });
    if (!result.data) return;
    const { token, user } = result.data.data;
    saveAdminSession({ token, userData: { email: user.email } });
    navigate('/admin/emails', { replace: true });
  };

  return (
    <AuthScreen title="Admin sign in" description="Manage rates, the mailing list and API customers.">
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
        <Input
          label="Password"
          type="password"
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          error={errors.password}
        />
        <Button type="submit" size="lg" className="w-full" isLoading={isLoading}>
          Sign in
        </Button>
      </form>
    </AuthScreen>
  );
}

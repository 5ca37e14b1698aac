import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../../components/Button';
import { Input } from '../../../components/Input';
import { Logo } from '../../../components/Logo';
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
    <div className="relative flex min-h-dvh items-center justify-center overflow-hidden bg-brand-950 px-4 py-12">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-0 bg-[radial-gradient(ellipse_at_top,rgba(232,177,58,0.18),transparent_55%),radial-gradient(ellipse_at_bottom_right,rgba(36,148,104,0.35),transparent_60%)]"
      />
      <main className="relative w-full max-w-md">
        <div className="mb-8 flex justify-center">
          <Link to="/" aria-label="AfroFX home" className="rounded-lg">
            <Logo tone="dark" />
          </Link>
        </div>
        <div className="rounded-2xl bg-white p-6 shadow-2xl sm:p-8">
          <h1 className="text-2xl font-bold tracking-tight text-slate-900">Admin sign in</h1>
          <p className="mt-1 text-sm text-slate-600">Manage rates, the mailing list and API customers.</p>
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
        </div>
        <p className="mt-6 text-center text-sm text-brand-200/80">
          <Link to="/" className="hover:text-white">
            ← Back to AfroFX
          </Link>
        </p>
      </main>
    </div>
  );
}

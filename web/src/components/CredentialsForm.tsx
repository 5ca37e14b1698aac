import { useState, type FormEvent, type ReactNode } from 'react';
import { emailError } from '../lib/validation';
import { Button } from './Button';
import { Input } from './Input';

export interface Credentials {
  email: string;
  password: string;
}

interface CredentialsFormProps {
  /** Called with a trimmed e-mail once both fields pass the local checks; the server's refusal is toasted. */
  onSubmit(credentials: Credentials): Promise<void>;
  isLoading: boolean;
  /** Shown under the password field, e.g. a link to reset it. */
  passwordHint?: ReactNode;
}

interface CredentialErrors {
  email?: string;
  password?: string;
}

/** The e-mail and password form of both sign-in screens (admin and developer). */
export function CredentialsForm({ onSubmit, isLoading, passwordHint }: CredentialsFormProps) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<CredentialErrors>({});

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found: CredentialErrors = {
      email: emailError(email),
      password: password ? undefined : 'Password is required.',
    };
    setErrors(found);
    if (found.email || found.password) return;
    await onSubmit({ email: email.trim(), password });
  };

  return (
    <form noValidate onSubmit={submit} className="mt-8 space-y-5">
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
        {passwordHint}
      </div>
      <Button type="submit" size="lg" className="w-full" isLoading={isLoading}>
        Sign in
      </Button>
    </form>
  );
}

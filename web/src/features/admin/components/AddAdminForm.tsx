import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/Button';
import { Input } from '../../../components/Input';
import { emailError } from '../../../lib/validation';

interface AddAdminFormProps {
  /** Called with a trimmed e-mail once both fields pass the local checks; the server judges the password's strength. */
  onSubmit(admin: { email: string; password: string }): void;
  isSubmitting: boolean;
  onCancel(): void;
}

export function AddAdminForm({ onSubmit, isSubmitting, onCancel }: AddAdminFormProps) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ email?: string; password?: string }>({});

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = { email: emailError(email), password: password ? undefined : 'Password is required.' };
    setErrors(found);
    if (found.email || found.password) return;
    onSubmit({ email: email.trim(), password });
  };

  return (
    <form noValidate onSubmit={submit} className="space-y-5">
      <Input
        label="E-mail address"
        type="email"
        name="email"
        autoComplete="off"
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        error={errors.email}
      />
      <Input
        label="Password"
        type="password"
        name="password"
        autoComplete="new-password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        error={errors.password}
      />
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" isLoading={isSubmitting}>
          Add Admin
        </Button>
      </div>
    </form>
  );
}

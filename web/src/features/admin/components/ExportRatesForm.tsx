import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/Button';
import { Input } from '../../../components/Input';
import { emailError } from '../../../lib/validation';

interface ExportRatesFormProps {
  defaultEmail: string;
  isSubmitting: boolean;
  onSubmit: (email: string) => void;
  onCancel: () => void;
}

/** SPEC §5: the export needs an e-mail address to send the CSV to. */
export function ExportRatesForm({ defaultEmail, isSubmitting, onSubmit, onCancel }: ExportRatesFormProps) {
  const [email, setEmail] = useState(defaultEmail);
  const [error, setError] = useState<string>();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const problem = emailError(email);
    setError(problem);
    if (!problem) onSubmit(email.trim());
  };

  return (
    <form noValidate onSubmit={submit} className="space-y-5">
      <Input
        label="E-mail address"
        type="email"
        name="email"
        autoComplete="email"
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        error={error}
      />
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" isLoading={isSubmitting}>
          Send CSV
        </Button>
      </div>
    </form>
  );
}

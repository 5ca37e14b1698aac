import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/Button';
import { Input } from '../../../components/Input';
import { showToast } from '../../../lib/toast';
import { emailError } from '../../../lib/validation';
import { useCreateEmailSubMutation } from '../public-api';

export function SubscribeForm() {
  const [subscribe, { isLoading }] = useCreateEmailSubMutation();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string>();

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const problem = emailError(email);
    setError(problem);
    if (problem) return;
    const result = await subscribe({ email: email.trim() });
    // SPEC §8: an error clears the form too; the API layer has already toasted its message.
    setEmail('');
    if (result.data) showToast(result.data.message, 'success');
  };

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-3 sm:flex-row sm:items-start">
      <Input
        label="E-mail address"
        hideLabel
        type="email"
        name="email"
        autoComplete="email"
        placeholder="you@example.com"
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        error={error}
        containerClassName="flex-1"
      />
      <Button type="submit" variant="accent" size="lg" className="h-11" isLoading={isLoading}>
        Subscribe
      </Button>
    </form>
  );
}

import { CreateAppInput } from '@afrofx/shared';
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/Button';
import { Input } from '../../../components/Input';
import { showToast } from '../../../lib/toast';
import { saveCurrentApp } from '../current-app';
import { useCreateAppMutation } from '../developer-api';

const NAME_MAX_LENGTH = CreateAppInput.properties.name.maxLength ?? 80;

export function CreateAppForm() {
  const [createApp, { isLoading }] = useCreateAppMutation();
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const trimmed = name.trim();
    const problem = trimmed ? undefined : 'App name is required.';
    setError(problem);
    if (problem) return;
    const result = await createApp({ name: trimmed });
    if (!result.data) return;
    // The app just made is the one the developer means to set up next: it becomes the current app.
    saveCurrentApp(result.data.data);
    showToast(result.data.message, 'success');
    setName('');
  };

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-4">
      <Input
        label="App name"
        name="name"
        placeholder="e.g. Checkout pricing"
        maxLength={NAME_MAX_LENGTH}
        value={name}
        onChange={(event) => setName(event.target.value)}
        error={error}
      />
      <Button type="submit" className="w-full" isLoading={isLoading}>
        Create app
      </Button>
    </form>
  );
}

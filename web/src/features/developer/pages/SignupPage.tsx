import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { PASSWORD_RULE } from '@afrofx/shared';
import { AuthScreen, authFooterLinkClasses } from '../../../components/AuthScreen';
import { Button, buttonClasses } from '../../../components/Button';
import { Input } from '../../../components/Input';
import { Notice } from '../../../components/Notice';
import { showToast } from '../../../lib/toast';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { emailError } from '../../../lib/validation';
import { useSignupMutation } from '../developer-api';
import {
  newPasswordError,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  serverPasswordError,
} from '../../../lib/password-rules';
import { paths } from '../../../lib/paths';

// SPEC §8, word for word.
const SIGNUP_SUCCESS = 'Your account has successfully been created, kindly check your mail for activation.';
const NAME_MAX_LENGTH = 100;

interface SignupForm {
  first_name: string;
  last_name: string;
  email: string;
  password: string;
}

type SignupErrors = Partial<Record<keyof SignupForm, string>>;

const emptyForm: SignupForm = { first_name: '', last_name: '', email: '', password: '' };

export function SignupPage() {
  useDocumentTitle('Create an account');
  const [signup, { isLoading }] = useSignupMutation();
  const [form, setForm] = useState(emptyForm);
  const [errors, setErrors] = useState<SignupErrors>({});
  const [createdFor, setCreatedFor] = useState<string | null>(null);

  const field = (name: keyof SignupForm) => ({
    name,
    value: form[name],
    error: errors[name],
    onChange: (event: { target: { value: string } }) => setForm({ ...form, [name]: event.target.value }),
  });

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found: SignupErrors = {
      first_name: form.first_name.trim() ? undefined : 'First name is required.',
      last_name: form.last_name.trim() ? undefined : 'Last name is required.',
      email: emailError(form.email),
      password: newPasswordError(form.password),
    };
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    const email = form.email.trim();
    const result = await signup({
      email,
      password: form.password,
      first_name: form.first_name.trim(),
      last_name: form.last_name.trim(),
    });
    if (!result.data) return setErrors({ password: serverPasswordError(result) });
    showToast(SIGNUP_SUCCESS, 'success');
    setForm(emptyForm);
    setCreatedFor(email);
  };

  if (createdFor) {
    return (
      <AuthScreen title="Check your inbox">
        <Notice tone="success" role="status" title={SIGNUP_SUCCESS} className="mt-6">
          We sent the activation link to <span className="font-semibold break-all">{createdFor}</span>. Open
          it, then sign in.
        </Notice>
        <Link to={paths.developer.signin} className={buttonClasses('primary', 'lg', 'mt-6 w-full')}>
          Go to sign in
        </Link>
      </AuthScreen>
    );
  }

  return (
    <AuthScreen
      wide
      title="Create your developer account"
      description="Get API keys for the naira, shilling, rand and cedi rates in a few minutes."
      footer={
        <p>
          Already have an account?{' '}
          <Link to={paths.developer.signin} className={authFooterLinkClasses}>
            Sign in
          </Link>
        </p>
      }
    >
      <form noValidate onSubmit={onSubmit} className="mt-8 space-y-5">
        <div className="grid gap-5 sm:grid-cols-2">
          <Input
            label="First name"
            autoComplete="given-name"
            maxLength={NAME_MAX_LENGTH}
            {...field('first_name')}
          />
          <Input
            label="Last name"
            autoComplete="family-name"
            maxLength={NAME_MAX_LENGTH}
            {...field('last_name')}
          />
        </div>
        <Input label="E-mail address" type="email" autoComplete="email" maxLength={254} {...field('email')} />
        <div>
          <Input
            label="Password"
            type="password"
            autoComplete="new-password"
            minLength={PASSWORD_MIN_LENGTH}
            maxLength={PASSWORD_MAX_LENGTH}
            {...field('password')}
          />
          {!errors.password && <p className="mt-1.5 text-xs text-slate-500">{PASSWORD_RULE}</p>}
        </div>
        <Button type="submit" size="lg" className="w-full" isLoading={isLoading}>
          Create account
        </Button>
        <p className="text-center text-xs text-slate-500">
          By creating an account you agree to our{' '}
          <Link
            to="/company/terms_of_use"
            className="font-medium text-slate-700 underline hover:text-slate-900"
          >
            terms of use
          </Link>{' '}
          and{' '}
          <Link to="/company/privacy" className="font-medium text-slate-700 underline hover:text-slate-900">
            privacy policy
          </Link>
          .
        </p>
      </form>
    </AuthScreen>
  );
}

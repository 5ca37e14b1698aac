import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/Button';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { Input } from '../../../components/Input';
import { Modal } from '../../../components/Modal';
import { showToast } from '../../../lib/toast';
import { emailError } from '../../../lib/validation';
import { useLiftSignInLockMutation } from '../admin-api';

/**
 * Failed sign-ins slow an address down, wherever they come from: a stranger's guesses can keep an admin out, and an
 * admin has no reset by mail. Another admin lifts the lock here, after saying which address and confirming it.
 */
export function LiftSignInLock() {
  const [step, setStep] = useState<'closed' | 'address' | 'confirm'>('closed');
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [liftLock, liftState] = useLiftSignInLockMutation();

  const close = () => {
    setStep('closed');
    setEmail('');
    setError(undefined);
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = emailError(email);
    setError(found);
    if (!found) setStep('confirm');
  };

  const lift = async () => {
    // A refusal is shown by the API's error toast; the dialog stays open to try again or cancel.
    const result = await liftLock({ email: email.trim() });
    if (!result.data) return;
    showToast(result.data.message, 'success');
    close();
  };

  return (
    <>
      <Button variant="secondary" onClick={() => setStep('address')}>
        Lift Sign-in Lock
      </Button>
      <Modal
        open={step === 'address'}
        title="Lift Sign-in Lock"
        description="After several failed sign-ins an address must wait before it may try again. Lifting the lock lets its next sign-in, in either console, be checked at once."
        onClose={close}
        size="sm"
      >
        <form noValidate onSubmit={submit} className="space-y-5">
          <Input
            label="E-mail address"
            type="email"
            name="email"
            autoComplete="off"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            error={error}
          />
          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <Button variant="secondary" onClick={close}>
              Cancel
            </Button>
            <Button type="submit">Continue</Button>
          </div>
        </form>
      </Modal>
      <ConfirmDialog
        open={step === 'confirm'}
        title="Lift this sign-in lock?"
        message={`The failed sign-ins of ${email.trim()} are forgotten: whoever knows its password can sign in right away.`}
        confirmLabel="Lift Lock"
        isLoading={liftState.isLoading}
        onConfirm={() => void lift()}
        onCancel={close}
      />
    </>
  );
}

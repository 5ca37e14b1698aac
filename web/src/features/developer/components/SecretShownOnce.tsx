import { useId, type ReactNode } from 'react';
import { Button } from '../../../components/Button';
import { copyWithToast } from '../../../lib/clipboard';
import { KeyField } from './KeyField';

interface SecretShownOnceProps {
  title: string;
  /** The server's message about what was just made. */
  message: string;
  /** What the secret belongs to, under the message. */
  detail?: ReactNode;
  /** The secret's name, e.g. "Private key"; also the copy-failure wording. */
  label: string;
  secret: string;
  hint: ReactNode;
  onDone(): void;
}

/**
 * A secret the server shows only once (an API private key, a webhook signing secret): it lives in memory until the
 * developer confirms they have saved it.
 */
export function SecretShownOnce({
  title,
  message,
  detail,
  label,
  secret,
  hint,
  onDone,
}: SecretShownOnceProps) {
  const headingId = useId();
  return (
    <section
      aria-labelledby={headingId}
      className="mb-6 rounded-2xl bg-gold-50 p-5 ring-1 ring-gold-500/40 sm:p-6"
    >
      <div className="flex items-start gap-3">
        <span
          className="flex size-8 shrink-0 items-center justify-center rounded-full bg-gold-400 font-bold text-brand-950"
          aria-hidden="true"
        >
          !
        </span>
        <div className="min-w-0">
          <h2 id={headingId} className="font-semibold text-slate-900">
            {title}
          </h2>
          <p role="status" className="mt-1 text-sm text-slate-700">
            {message}
          </p>
          {detail && <p className="mt-1 text-sm break-all text-slate-600">{detail}</p>}
        </div>
      </div>
      <div className="mt-5">
        <KeyField
          label={label}
          value={secret}
          onCopy={() => void copyWithToast(secret, label.toLowerCase())}
          emphasis
          hint={hint}
        />
      </div>
      <div className="mt-5 flex justify-end">
        <Button variant="secondary" onClick={onDone}>
          I’ve saved it
        </Button>
      </div>
    </section>
  );
}

// Basqet's contract as its public client libraries show it (shared/providers/basqet.md), in one place: the live
// adapter (payment-provider.ts) and the sandbox's fake of it (sandbox.routes.ts) both follow these names. The
// choices marked UNCONFIRMED are where the libraries are silent: check each in test mode before going live
// (docs/payments.md, "Before taking live payments").

export const BASQET_API_URL = 'https://api.basqet.com/v1';
/** basqet-react's script; it defines `window.payWithBasqet(config)`. */
export const BASQET_SCRIPT_URL = 'https://checkout.basqet.com/static/prod/basqet.js';

/** The one paid status the SDKs' example shows. */
export const BASQET_PAID_STATUS = 'SUCCESSFUL';
/**
 * UNCONFIRMED: no other status name appears in the clients. These are read as "will never be paid"; any other
 * status (and an unknown transaction) leaves the order pending, to be asked about again.
 */
export const BASQET_FAILED_STATUSES: ReadonlySet<string> = new Set([
  'FAILED',
  'DECLINED',
  'CANCELLED',
  'EXPIRED',
  'ABANDONED',
]);

/**
 * UNCONFIRMED: basqet-react's README says "in kobo" while its own example passes '100' with USD. We send the
 * amount in major units (dollars with cents, whole naira) as a decimal string, as the example does.
 */
export const BASQET_AMOUNT_UNIT = 'major' as const;

/**
 * UNCONFIRMED: the clients show no webhook format. Every webhook is only a hint that starts a status look-up; these
 * are the body fields read for the transaction it is about (the first that names a known order wins).
 */
export const BASQET_WEBHOOK_ID_FIELDS = ['data.id', 'data.transaction_id', 'data.transaction.id'] as const;
export const BASQET_WEBHOOK_REFERENCE_FIELDS = [
  'data.reference',
  'data.meta.reference',
  'data.metadata.reference',
] as const;

/**
 * UNCONFIRMED: no client shows a webhook signature. `none` (the default) accepts any body as a hint, which is safe
 * because nothing is granted before the status look-up; `hmac-sha512` requires our guess at one (an HMAC-SHA512 of
 * the raw body with the secret key, hex, in BASQET_WEBHOOK_SIGNATURE_HEADER) once the real format is known.
 */
export const WEBHOOK_SIGNATURE_CHECKS = ['none', 'hmac-sha512'] as const;
export type WebhookSignatureCheck = (typeof WEBHOOK_SIGNATURE_CHECKS)[number];
export const BASQET_WEBHOOK_SIGNATURE_HEADER = 'x-basqet-signature';

/** Every answer: `{ status, data, meta }`. */
export interface BasqetEnvelope<T> {
  status: string;
  data: T;
  meta?: Record<string, unknown>;
}

/** `POST transaction` (initialize) body. */
export interface BasqetInitializeBody {
  customer: { name: string; email: string };
  amount: string;
  currency: string;
  meta: { reference: string };
}

/** What `POST transaction` answers in `data` (the fields this product reads). */
export interface BasqetTransaction {
  id: string;
  reference?: string | null;
  status: string;
  initialized_amount?: string | number | null;
  initialized_currency?: string | null;
}

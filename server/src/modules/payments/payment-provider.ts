// DESIGN §4: providers behind one interface. Both speak Basqet's HTTP API: `basqet` is the real one, `sandbox` the
// product's own copy of it (sandbox.routes.ts), so this client is the code that runs in either case.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { PAYMENT_REFERENCE_PATTERN, type PaymentProvider as ProviderName } from '@afrofx/shared';
import type { Config } from '../../config';

/** What the provider says about a reference. `pending` also covers a reference it has not seen (not paid yet). */
export interface PaymentVerification {
  status: 'successful' | 'pending' | 'failed';
  /** What was paid, in minor units, when the provider says. */
  amountMinor: number | null;
  currency: string | null;
  /** The provider's own word, for the record. */
  providerStatus: string;
}

/** The provider could not answer (network, timeout, 5xx, nonsense): nothing may be decided on it. */
export class ProviderUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderUnavailable';
  }
}

export interface PaymentProvider {
  readonly name: ProviderName;
  readonly publicKey: string;
  readonly scriptUrl: string;
  verify(reference: string): Promise<PaymentVerification>;
  /** Webhooks: an HMAC-SHA512 of the raw body with the secret key, hex, in the `x-basqet-signature` header. */
  signatureIsValid(rawBody: Buffer, signature: string | undefined): boolean;
}

export interface BasqetClientOptions {
  name: ProviderName;
  apiUrl: string;
  publicKey: string;
  secretKey: string;
  scriptUrl: string;
  timeoutMs?: number;
}

const REFERENCE = new RegExp(PAYMENT_REFERENCE_PATTERN);
const SUCCESSFUL = new Set(['SUCCESSFUL', 'SUCCESS', 'COMPLETED', 'PAID']);
const FAILED = new Set(['FAILED', 'DECLINED', 'ABANDONED', 'CANCELLED', 'EXPIRED', 'REVERSED']);

export const WEBHOOK_SIGNATURE_HEADER = 'x-basqet-signature';

export function signWebhook(rawBody: Buffer | string, secretKey: string): string {
  return createHmac('sha512', secretKey).update(rawBody).digest('hex');
}

function minorUnits(amount: unknown): number | null {
  const value = typeof amount === 'string' ? Number(amount) : amount;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return null;
  return Math.round(value * 100);
}

export function createBasqetClient(options: BasqetClientOptions): PaymentProvider {
  const { apiUrl, secretKey, timeoutMs = 10_000 } = options;
  return {
    name: options.name,
    publicKey: options.publicKey,
    scriptUrl: options.scriptUrl,

    async verify(reference) {
      // The reference goes into a URL: only the server's own shape is ever sent (never `../` or a host).
      if (!REFERENCE.test(reference)) throw new RangeError('not a payment reference');
      let response: Response;
      let body: unknown;
      try {
        response = await fetch(`${apiUrl}/transaction/${encodeURIComponent(reference)}/status`, {
          headers: { authorization: `Bearer ${secretKey}`, accept: 'application/json' },
          signal: AbortSignal.timeout(timeoutMs),
          redirect: 'error',
        });
        body = await response.json().catch(() => undefined);
      } catch (err) {
        throw new ProviderUnavailable(`payment provider unreachable: ${(err as Error).message}`);
      }
      if (response.status === 404) {
        return { status: 'pending', amountMinor: null, currency: null, providerStatus: 'NOT_FOUND' };
      }
      const data = (body as { data?: Record<string, unknown> } | undefined)?.data;
      if (!response.ok || !data || typeof data.status !== 'string') {
        throw new ProviderUnavailable(`payment provider answered ${response.status}`);
      }
      if (data.reference !== undefined && data.reference !== reference) {
        throw new ProviderUnavailable('payment provider answered about another reference');
      }
      const providerStatus = data.status.toUpperCase();
      return {
        status: SUCCESSFUL.has(providerStatus)
          ? 'successful'
          : FAILED.has(providerStatus)
            ? 'failed'
            : 'pending',
        amountMinor: minorUnits(data.amount),
        currency: typeof data.currency === 'string' ? data.currency.toUpperCase() : null,
        providerStatus,
      };
    },

    signatureIsValid(rawBody, signature) {
      if (!signature || !/^[0-9a-f]{128}$/i.test(signature)) return false;
      return timingSafeEqual(
        Buffer.from(signWebhook(rawBody, secretKey), 'hex'),
        Buffer.from(signature, 'hex'),
      );
    },
  };
}

export function createPaymentProvider(config: Config): PaymentProvider {
  return createBasqetClient({ name: config.paymentProvider, ...config.payment });
}

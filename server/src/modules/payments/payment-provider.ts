// DESIGN §4: providers behind one interface. Both speak Basqet's HTTP API as its client libraries show it
// (basqet-contract.ts): `basqet` is the real one, `sandbox` the product's own fake of it (sandbox.routes.ts), so
// this adapter is the code that runs in either case; only the base URLs and keys differ.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { fromMinor, type PaymentCurrency, type PaymentProvider as ProviderName } from '@afrofx/shared';
import type { PaymentProviderName, PaymentSettings } from '../../settings';
import {
  BASQET_FAILED_STATUSES,
  BASQET_PAID_STATUS,
  type BasqetEnvelope,
  type BasqetInitializeBody,
  type BasqetTransaction,
  type WebhookSignatureCheck,
} from '../../providers/basqet-contract';

/** What the provider says about a transaction. `pending` also covers one it does not know (not paid yet). */
export interface PaymentVerification {
  status: 'successful' | 'pending' | 'failed';
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

/** What the server fixes at the provider before the modal opens: the order's own price. */
export interface TransactionToInitialize {
  reference: string;
  amountMinor: number;
  currency: PaymentCurrency;
  customer: { name: string; email: string };
}

export interface PaymentProvider {
  readonly name: ProviderName;
  readonly publicKey: string;
  readonly scriptUrl: string;
  /** `POST transaction`: the provider's id of a transaction at exactly this amount and currency. */
  initialize(transaction: TransactionToInitialize): Promise<string>;
  /** `GET transaction/{id}/status` ("fetch to confirm"). */
  verify(transactionId: string): Promise<PaymentVerification>;
  /** Whether a webhook passes the configured signature check (see WEBHOOK_SIGNATURE_CHECKS). */
  webhookIsAuthentic(rawBody: Buffer, signature: string | undefined): boolean;
}

export interface BasqetClientOptions {
  name: ProviderName;
  apiUrl: string;
  publicKey: string;
  secretKey: string;
  scriptUrl: string;
  webhookSignature: WebhookSignatureCheck;
  timeoutMs?: number;
}

/** Provider transaction ids go into URLs: only this shape is ever sent (never `../`, `?` or a host). */
export const PROVIDER_TRANSACTION_ID = /^[A-Za-z0-9_-]{1,100}$/;

export function signWebhook(rawBody: Buffer | string, secretKey: string): string {
  return createHmac('sha512', secretKey).update(rawBody).digest('hex');
}

/** The major-unit decimal string Basqet is sent (BASQET_AMOUNT_UNIT): 5020 cents is "50.20". */
export const basqetAmount = (amountMinor: number): string => fromMinor(amountMinor).toFixed(2);

export function createBasqetClient(options: BasqetClientOptions): PaymentProvider {
  const { apiUrl, publicKey, secretKey, timeoutMs = 10_000 } = options;

  /** One call with the SDKs' auth (the PUBLIC key as Bearer); the status and the envelope's `data`, if any. */
  async function call(method: 'GET' | 'POST', path: string, body?: unknown) {
    try {
      const response = await fetch(`${apiUrl}/${path}`, {
        method,
        headers: {
          authorization: `Bearer ${publicKey}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
        redirect: 'error',
      });
      const envelope = (await response.json().catch(() => undefined)) as
        BasqetEnvelope<Record<string, unknown> | undefined> | undefined;
      return { status: response.status, ok: response.ok, data: envelope?.data };
    } catch (err) {
      throw new ProviderUnavailable(`payment provider unreachable: ${(err as Error).message}`);
    }
  }

  return {
    name: options.name,
    publicKey,
    scriptUrl: options.scriptUrl,

    async initialize(transaction) {
      const amount = basqetAmount(transaction.amountMinor);
      const body: BasqetInitializeBody = {
        customer: transaction.customer,
        amount,
        currency: transaction.currency,
        meta: { reference: transaction.reference },
      };
      const answer = await call('POST', 'transaction', body);
      const data = answer.data as Partial<BasqetTransaction> | undefined;
      if (!answer.ok || typeof data?.id !== 'string' || !PROVIDER_TRANSACTION_ID.test(data.id)) {
        throw new ProviderUnavailable(`payment provider answered ${answer.status} to initialize`);
      }
      // A transaction at another price than the one sent is never offered to the customer.
      const initializedAmount = data.initialized_amount;
      const initializedCurrency = data.initialized_currency;
      if (
        (initializedAmount != null && Number(initializedAmount) !== Number(amount)) ||
        (initializedCurrency != null && initializedCurrency.toUpperCase() !== transaction.currency)
      ) {
        throw new ProviderUnavailable(
          `payment provider initialized ${String(initializedAmount)} ${String(initializedCurrency)}, not ${amount} ${transaction.currency}`,
        );
      }
      return data.id;
    },

    async verify(transactionId) {
      if (!PROVIDER_TRANSACTION_ID.test(transactionId)) throw new RangeError('not a provider transaction id');
      const answer = await call('GET', `transaction/${transactionId}/status`);
      if (answer.status === 404) return { status: 'pending', providerStatus: 'NOT_FOUND' };
      const status = answer.data?.status;
      if (!answer.ok || typeof status !== 'string') {
        throw new ProviderUnavailable(`payment provider answered ${answer.status}`);
      }
      const providerStatus = status.toUpperCase();
      return {
        status:
          providerStatus === BASQET_PAID_STATUS
            ? 'successful'
            : BASQET_FAILED_STATUSES.has(providerStatus)
              ? 'failed'
              : 'pending',
        providerStatus,
      };
    },

    webhookIsAuthentic(rawBody, signature) {
      if (options.webhookSignature === 'none') return true;
      if (!signature || !/^[0-9a-f]{128}$/i.test(signature)) return false;
      return timingSafeEqual(
        Buffer.from(signWebhook(rawBody, secretKey), 'hex'),
        Buffer.from(signature, 'hex'),
      );
    },
  };
}

export function createPaymentProvider(config: {
  paymentProvider: PaymentProviderName;
  payment: PaymentSettings;
}): PaymentProvider {
  return createBasqetClient({ name: config.paymentProvider, ...config.payment });
}

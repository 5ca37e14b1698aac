// Buying a plan (SPEC §4, §7; DESIGN §4): the server makes a pending order with its own price, the browser pays it
// in the provider's modal, and the server verifies the reference with the provider before anything is granted.
import { Type, type Static } from '@sinclair/typebox';
import { PAYMENT_CURRENCIES, type PaymentCurrency } from '../constants';
import { Subscription, Transaction } from './account';
import { Id, StringEnum, Text } from './common';

export const PAYMENT_PROVIDERS = ['sandbox', 'basqet'] as const;
export type PaymentProvider = (typeof PAYMENT_PROVIDERS)[number];

/** Order references as the server makes them; anything else (paths, URLs) is refused before any look-up. */
export const PAYMENT_REFERENCE_PATTERN = '^afx_[A-Za-z0-9]{24}$';
export const PaymentReference = Type.String({ pattern: PAYMENT_REFERENCE_PATTERN });

export const PaymentCurrencySchema = StringEnum(PAYMENT_CURRENCIES);

/** POST account/initialize_payment/{appId}. `isUpcoming` is the browser's view; the server decides and answers it. */
export const InitializePaymentInput = Type.Object(
  { plan: Id, currency: PaymentCurrencySchema, isUpcoming: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);
export type InitializePaymentInput = Static<typeof InitializePaymentInput>;

/** What the provider's modal is opened with: the order's own price, never one the browser computed. */
export const PaymentCheckout = Type.Object({
  provider: StringEnum(PAYMENT_PROVIDERS),
  publicKey: Type.String(),
  /** The provider's checkout script; it defines `window.BasqetCheckout` (see CheckoutOptions). */
  scriptUrl: Type.String(),
  reference: PaymentReference,
  /** In the currency's major units (dollars with cents, whole naira). */
  amount: Type.Number(),
  currency: PaymentCurrencySchema,
  customer: Type.Object({ name: Type.String(), email: Type.String() }),
  narration: Type.String(),
  plan: Type.Object({ _id: Type.String(), name: Type.String() }),
  /** True when the plan starts once the current one ends (SPEC §4). */
  isUpcoming: Type.Boolean(),
  /** After this the order is void; a new one is needed. */
  expiresAt: Type.String({ format: 'date-time' }),
});
export type PaymentCheckout = Static<typeof PaymentCheckout>;

/**
 * POST account/create_transaction/{appId} (SPEC §7): plan id, currency, isUpcoming, currentRate (NGN only), plus
 * the provider's success result (`reference`, and its `status` and `id` when it gives them). The server trusts
 * none of it: it verifies the reference with the provider and charges the order's price.
 */
export const CreateTransactionInput = Type.Object(
  {
    plan: Id,
    currency: PaymentCurrencySchema,
    isUpcoming: Type.Boolean(),
    currentRate: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1e9 })),
    reference: PaymentReference,
    status: Type.Optional(Text({ maxLength: 40 })),
    id: Type.Optional(Text({ maxLength: 100 })),
  },
  { additionalProperties: false },
);
export type CreateTransactionInput = Static<typeof CreateTransactionInput>;

/** The answer to create_transaction (a replay answers the same recorded pair). */
export const Purchase = Type.Object({ transaction: Transaction, subscription: Subscription });
export type Purchase = Static<typeof Purchase>;

/** What the checkout script calls back with. */
export interface CheckoutResult {
  reference: string;
  /** 'SUCCESSFUL' on success; 'DECLINED' or 'CANCELLED' when the modal closes without payment. */
  status: string;
  /** The provider's own id of the payment, when it has one. */
  id?: string;
  message?: string;
}

/** `window.BasqetCheckout.open(options)`, as the provider's script (and the sandbox's) defines it. */
export interface CheckoutOptions {
  publicKey: string;
  amount: number;
  currency: PaymentCurrency;
  reference: string;
  customer: { name: string; email: string };
  narration: string;
  onSuccess(result: CheckoutResult): void;
  onClose(result: CheckoutResult): void;
}

declare global {
  interface Window {
    BasqetCheckout?: { open(options: CheckoutOptions): void };
  }
}

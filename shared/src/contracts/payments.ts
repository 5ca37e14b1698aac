// Buying a plan (SPEC §4, §7; DESIGN §4): the server makes a pending order with its own price, the browser pays it
// in the provider's modal, and the server verifies the reference with the provider before anything is granted.
import { Type, type Static } from '@sinclair/typebox';
import { PAYMENT_AMOUNT_MAX, PAYMENT_CURRENCIES, type PaymentCurrency } from '../constants';
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
  /** The provider's checkout script; it defines `window.payWithBasqet` (see BasqetConfig). */
  scriptUrl: Type.String(),
  reference: PaymentReference,
  /** The provider's id of the transaction the server initialized at this amount and currency. */
  transactionId: Type.String(),
  /** In the currency's major units (dollars with cents, whole naira). */
  amount: Type.Number({ exclusiveMinimum: 0, maximum: PAYMENT_AMOUNT_MAX }),
  currency: PaymentCurrencySchema,
  customer: Type.Object({ name: Type.String(), email: Type.String() }),
  narration: Type.String(),
  plan: Type.Object({ _id: Type.String(), name: Type.String() }),
  /** True when the plan starts once the current one ends (SPEC §4). */
  isUpcoming: Type.Boolean(),
  /** An upgrade now, in dollars: the plan's price less the unused part of the current term (fee apart). */
  upgrade: Type.Optional(
    Type.Object({
      from: Type.String({ description: 'The plan it replaces at once' }),
      price: Type.Number(),
      credit: Type.Number(),
      due: Type.Number(),
    }),
  ),
  /** After this the order is void; a new one is needed. */
  expiresAt: Type.String({ format: 'date-time' }),
});
export type PaymentCheckout = Static<typeof PaymentCheckout>;

/** What initialize_payment answers for a free plan: it is active at once, with no payment. */
export const FreeActivation = Type.Object({
  activated: Type.Literal(true),
  subscription: Subscription,
});
export type FreeActivation = Static<typeof FreeActivation>;

export const InitializedPayment = Type.Union([PaymentCheckout, FreeActivation]);
export type InitializedPayment = Static<typeof InitializedPayment>;

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

/** GET admin/held_payments: payments taken but not granted (SPEC §4 no stacking), for an admin to refund or grant. */
export const HeldPayment = Type.Object({
  reference: PaymentReference,
  providerTransactionId: Type.Union([Type.String(), Type.Null()]),
  app: Type.Object({ _id: Type.String() }),
  planName: Type.String(),
  amount: Type.Number(),
  currency: PaymentCurrencySchema,
  reason: Type.String(),
  paidAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
export type HeldPayment = Static<typeof HeldPayment>;

/** What `onSuccess` receives: the transaction's details (the sandbox's stand-in gives these; Basqet gives more). */
export interface BasqetSuccess {
  id: string;
  status: string;
  [field: string]: unknown;
}

/** `window.payWithBasqet(config)`, with basqet-react's names (shared/providers/basqet.md). */
export interface BasqetConfig {
  public_key: string;
  email: string;
  amount: string | number;
  currency?: PaymentCurrency;
  metadata?: Record<string, unknown>;
  onSuccess(response: BasqetSuccess): void;
  onError?(error: { type: string }): void;
  onClose?(): void;
  /** The customer closed the modal without paying. */
  onAbandoned(): void;
}

declare global {
  interface Window {
    payWithBasqet?: (config: BasqetConfig) => void;
  }
}

/** One line of a receipt, in the payment's currency (major units); a credit is a negative amount. */
export const ReceiptLine = Type.Object({ label: Type.String(), amount: Type.Number() });
export type ReceiptLine = Static<typeof ReceiptLine>;

/**
 * GET account/receipts and account/receipts/{reference}: what one settled payment bought, as the receipt
 * mail and the printable page show it. `lines` add up to `amount`.
 */
export const Receipt = Type.Object({
  reference: PaymentReference,
  paidAt: Type.String({ format: 'date-time' }),
  amount: Type.Number(),
  currency: PaymentCurrencySchema,
  /** The SPEC §9 fee within `amount`; null for payments made before it was kept. */
  fee: Type.Union([Type.Number(), Type.Null()]),
  lines: Type.Array(ReceiptLine),
  /**
   * An NGN payment's dollar rate (naira per dollar, the cash market's buy rate) and when the price was fixed with
   * it; null for USD and for payments made before it was kept.
   */
  exchangeRate: Type.Union([
    Type.Object({ rate: Type.Number(), at: Type.String({ format: 'date-time' }) }),
    Type.Null(),
  ]),
  plan: Type.Object({ name: Type.String(), requestLimit: Type.Integer() }),
  app: Type.Object({ _id: Type.String(), name: Type.String() }),
  /** The term the payment bought (an upcoming plan's starts when the current one ends). */
  period: Type.Union([
    Type.Object({ start: Type.String({ format: 'date-time' }), end: Type.String({ format: 'date-time' }) }),
    Type.Null(),
  ]),
  isUpcoming: Type.Boolean(),
  billedTo: Type.Object({ name: Type.String(), email: Type.String() }),
  seller: Type.Object({ name: Type.String(), address: Type.String() }),
  /** When the receipt mail reached the mail server; null while it is on its way, or for older payments. */
  mailedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
export type Receipt = Static<typeof Receipt>;

export const ReceiptParams = Type.Object({ reference: PaymentReference });

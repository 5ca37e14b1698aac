// The payment provider's settings from the environment: the sandbox this server serves itself, or Basqet with its
// keys, and where its API and checkout script are.
import { createHmac } from 'node:crypto';
import {
  BASQET_API_URL,
  BASQET_SCRIPT_URL,
  WEBHOOK_SIGNATURE_CHECKS,
  type WebhookSignatureCheck,
} from './providers/basqet-contract';
import { ConfigError, parseUrl, type Env } from './config-parse';
import type { PaymentProviderName, PaymentSettings } from './settings';

export interface PaymentConfig {
  paymentProvider: PaymentProviderName;
  basqet: { publicKey: string; secretKey: string } | undefined;
  /** The provider's HTTP API and checkout script: Basqet's, or the sandbox's own copy served by this product. */
  payment: PaymentSettings;
}

export function parsePayment(
  env: Env,
  { production, jwtSecret, publicUrl }: { production: boolean; jwtSecret: string; publicUrl: string },
): PaymentConfig {
  const paymentProvider = (env.PAYMENT_PROVIDER || 'sandbox') as PaymentProviderName;
  if (!['sandbox', 'basqet'].includes(paymentProvider)) {
    throw new ConfigError(`PAYMENT_PROVIDER must be sandbox or basqet, got "${paymentProvider}"`);
  }
  let basqet: PaymentConfig['basqet'];
  if (paymentProvider === 'basqet') {
    if (!env.BASQET_PUBLIC_KEY || !env.BASQET_SECRET_KEY) {
      throw new ConfigError('PAYMENT_PROVIDER=basqet needs BASQET_PUBLIC_KEY and BASQET_SECRET_KEY');
    }
    basqet = { publicKey: env.BASQET_PUBLIC_KEY, secretKey: env.BASQET_SECRET_KEY };
  }
  // The sandbox takes no money, so it must never stand in for the real provider.
  if (production && paymentProvider === 'sandbox') {
    throw new ConfigError(
      'PAYMENT_PROVIDER=sandbox takes no real payments: production needs PAYMENT_PROVIDER=basqet with its keys',
    );
  }
  const sandboxSecret = createHmac('sha256', jwtSecret).update('sandbox payments').digest('base64url');
  const payment: PaymentSettings = {
    apiUrl: (
      parseUrl('BASQET_API_URL', env.BASQET_API_URL, ['http:', 'https:']) ??
      (basqet
        ? BASQET_API_URL
        : `${parseUrl('SANDBOX_PAY_URL', env.SANDBOX_PAY_URL, ['http:', 'https:']) ?? `${publicUrl}/sandbox-pay`}/v1`)
    ).replace(/\/+$/, ''),
    scriptUrl:
      parseUrl('BASQET_SCRIPT_URL', env.BASQET_SCRIPT_URL, ['http:', 'https:']) ??
      (basqet ? BASQET_SCRIPT_URL : '/sandbox-pay/basqet.js'),
    publicKey: basqet?.publicKey ?? 'pk_sandbox_afrofx',
    secretKey: basqet?.secretKey ?? `sk_sandbox_${sandboxSecret}`,
    webhookSignature: (env.BASQET_WEBHOOK_SIGNATURE || 'none') as WebhookSignatureCheck,
  };
  if (!WEBHOOK_SIGNATURE_CHECKS.includes(payment.webhookSignature)) {
    throw new ConfigError(
      `BASQET_WEBHOOK_SIGNATURE must be ${WEBHOOK_SIGNATURE_CHECKS.join(' or ')}, got "${payment.webhookSignature}"`,
    );
  }
  return { paymentProvider, basqet, payment };
}

// Verifies an AfroFX webhook delivery: `AfroFX-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`, with
// one v1 per secret in force (two during a secret rotation). Node.js 18+ (node:crypto).
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { webhooks } from './schema';

type Delivery = {
  [E in keyof webhooks]: webhooks[E]['post']['requestBody']['content']['application/json'];
}[keyof webhooks];

export interface VerifyWebhookOptions {
  /** How far the signature's timestamp may be from now, either way (default 300 s): replays are refused. */
  toleranceSeconds?: number;
  /** The current time in milliseconds (tests). */
  now?: number;
}

export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
}

/**
 * Checks a delivery and answers its parsed body. `rawBody` is the body exactly as received (before any JSON
 * parsing); `secret` is your endpoint's secret, or both secrets while you switch after a rotation. Throws
 * WebhookVerificationError when no signature matches or the timestamp is outside the tolerance.
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  header: string | null | undefined,
  secret: string | readonly string[],
  { toleranceSeconds = 300, now = Date.now() }: VerifyWebhookOptions = {},
): Delivery {
  const body = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8');
  const items = (header ?? '').split(',').map((item) => {
    const at = item.indexOf('=');
    return [item.slice(0, at).trim(), item.slice(at + 1).trim()] as const;
  });
  const timestamp = items.find(([key]) => key === 't')?.[1];
  if (!timestamp || !/^\d+$/.test(timestamp))
    throw new WebhookVerificationError('No timestamp in the AfroFX-Signature header.');
  if (Math.abs(now / 1000 - Number(timestamp)) > toleranceSeconds)
    throw new WebhookVerificationError('The signature is older or newer than the tolerance allows.');
  const given = items.filter(([key, value]) => key === 'v1' && /^[0-9a-f]{64}$/.test(value));
  const secrets = typeof secret === 'string' ? [secret] : secret;
  const matches = secrets.some((key) => {
    const expected = createHmac('sha256', key).update(`${timestamp}.${body}`).digest();
    return given.some(([, value]) => timingSafeEqual(Buffer.from(value, 'hex'), expected));
  });
  if (!matches) throw new WebhookVerificationError('No v1 signature matches the secret.');
  return JSON.parse(body) as Delivery;
}

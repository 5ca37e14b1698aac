// The links of alert mails: a value with its HMAC under the JWT secret, so only a mail sent to an address can
// confirm its alert or manage its alerts, and nobody can make a link for another address.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { DomainError } from '../../errors';

type Purpose = 'alert-confirm' | 'alert-manage';

const signature = (secret: string, purpose: Purpose, value: string) =>
  createHmac('sha256', secret).update(`${purpose}:${value}`).digest('base64url');

export const ALERT_LINK_INVALID =
  'This link is not valid. Please use the link from your latest alert e-mail.';

function sign(secret: string, purpose: Purpose, value: string): string {
  const encoded = Buffer.from(value).toString('base64url');
  return `${encoded}.${signature(secret, purpose, value)}`;
}

function verify(secret: string, purpose: Purpose, token: string): string {
  const [encoded = '', given = '', ...rest] = token.split('.');
  const value = Buffer.from(encoded, 'base64url').toString();
  const expected = Buffer.from(signature(secret, purpose, value));
  const actual = Buffer.from(given);
  if (rest.length > 0 || actual.length !== expected.length || !timingSafeEqual(actual, expected)) {
    throw new DomainError(400, ALERT_LINK_INVALID);
  }
  return value;
}

export const confirmToken = (secret: string, alertId: string) => sign(secret, 'alert-confirm', alertId);
export const alertOfConfirmToken = (secret: string, token: string) => verify(secret, 'alert-confirm', token);
export const manageToken = (secret: string, email: string) =>
  sign(secret, 'alert-manage', email.toLowerCase());
export const emailOfManageToken = (secret: string, token: string) => verify(secret, 'alert-manage', token);

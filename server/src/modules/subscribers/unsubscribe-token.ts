// The unsubscribe link of a rates mail: the subscriber's id with its HMAC under the JWT secret, so only the mail
// sent to an address can take that address off the list, and nobody can make a link for another address.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { DomainError } from '../../errors';

const signature = (secret: string, subscriberId: string) =>
  createHmac('sha256', secret).update(`unsubscribe:${subscriberId}`).digest('base64url');

export function unsubscribeToken(secret: string, subscriberId: string): string {
  return `${subscriberId}.${signature(secret, subscriberId)}`;
}

export const UNSUBSCRIBE_LINK_INVALID =
  'This unsubscribe link is not valid. Please use the link from your latest rates e-mail.';

/** The subscriber a token was made for; a token that was not made here, or was changed, is refused. */
export function subscriberOfUnsubscribeToken(secret: string, token: string): string {
  const [subscriberId = '', given = '', ...rest] = token.split('.');
  const expected = Buffer.from(signature(secret, subscriberId));
  const actual = Buffer.from(given);
  if (rest.length > 0 || actual.length !== expected.length || !timingSafeEqual(actual, expected)) {
    throw new DomainError(400, UNSUBSCRIBE_LINK_INVALID);
  }
  return subscriberId;
}

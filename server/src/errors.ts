// Domain errors carry their HTTP status; the error handler turns them into the envelope (STYLE rule 4).
export class DomainError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const badRequest = (message: string) => new DomainError(400, message);
export const unauthorized = (message = 'Authentication required.') => new DomainError(401, message);
export const forbidden = (message = 'You are not allowed to do this.') => new DomainError(403, message);
export const notFound = (message: string) => new DomainError(404, message);
export const conflict = (message: string) => new DomainError(409, message);

/** A missing app and another account's app get this one answer, so app ids can't be probed. */
export const APP_NOT_FOUND = 'App not found.';

/** A wait in words, for the messages that say when to come back: "1 second", "42 seconds". */
export const secondsInWords = (seconds: number) => `${seconds} ${seconds === 1 ? 'second' : 'seconds'}`;

/** An answer that says when to come back (the Retry-After header, in seconds). */
export class RetryLater extends DomainError {
  constructor(
    statusCode: 429 | 503,
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(statusCode, message);
  }
}

/** A 429 that says when to come back. */
export class TooManyAttempts extends RetryLater {
  constructor(message: string, retryAfterSeconds: number) {
    super(429, message, retryAfterSeconds);
  }
}

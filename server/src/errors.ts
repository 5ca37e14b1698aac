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

/** A 429 that says when to come back (the Retry-After header, in seconds). */
export class TooManyAttempts extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, message);
  }
}

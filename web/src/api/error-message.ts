import { GENERIC_ERROR_MESSAGE } from '@afrofx/shared';
import type { ApiError } from './base-api';

/** The message to show for an RTK Query hook's `error`. */
export function errorMessage(error: unknown): string {
  if (error && typeof error === 'object' && 'message' in error) {
    const { message } = error as ApiError;
    if (typeof message === 'string' && message) return message;
  }
  return GENERIC_ERROR_MESSAGE;
}

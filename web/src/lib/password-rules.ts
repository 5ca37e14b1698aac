import { NewPassword } from '@afrofx/shared';

export const PASSWORD_MIN_LENGTH = NewPassword.minLength ?? 8;
export const PASSWORD_MAX_LENGTH = NewPassword.maxLength ?? 128;

/** The server's bounds for a new password, checked before the call. */
export function newPasswordError(password: string): string | undefined {
  if (!password) return 'Password is required.';
  if (password.length < PASSWORD_MIN_LENGTH)
    return `Password must be at least ${PASSWORD_MIN_LENGTH} characters.`;
  return undefined;
}

/** The server's refusal of a new password (too short, too easy to guess), to show under the field too. */
export function serverPasswordError(result: { error?: unknown }): string | undefined {
  const error = result.error as { status?: unknown; message?: unknown } | undefined;
  return error?.status === 400 && typeof error.message === 'string' && /password/i.test(error.message)
    ? error.message
    : undefined;
}

/** SPEC §5: the two entries of a new password must match. */
export function confirmationError(password: string, confirmation: string): string | undefined {
  return password === confirmation ? undefined : 'Password must match!';
}

/** SPEC §5: a password change must change the password. */
export function samePasswordError(oldPassword: string, newPassword: string): string | undefined {
  return oldPassword && oldPassword === newPassword ? 'Passwords can not be the same.' : undefined;
}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** SPEC §5: e-mail fields are required and of e-mail type. Returns the problem, or undefined. */
export function emailError(value: string): string | undefined {
  const email = value.trim();
  if (!email) return 'E-mail is required.';
  if (!EMAIL_PATTERN.test(email)) return 'Enter a valid e-mail address.';
  return undefined;
}

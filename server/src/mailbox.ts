// One mailbox is one mailbox: the sign-up limits and the Free-plan rule count what reaches one inbox, however the
// address is spelled. The address as typed is what the account keeps, shows and mails to.

/** Providers that deliver a local part with or without its dots to the same inbox, and their one name. */
const DOTLESS_PROVIDERS: Record<string, string> = {
  'gmail.com': 'gmail.com',
  'googlemail.com': 'gmail.com',
};

/** The inbox an address reaches: lower case, without a `+tag`, and without dots where the provider ignores them. */
export function mailboxOf(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  if (at < 1) return address;
  let local = address.slice(0, at);
  let domain = address.slice(at + 1);
  const tag = local.indexOf('+');
  if (tag > 0) local = local.slice(0, tag);
  const provider = DOTLESS_PROVIDERS[domain];
  if (provider) {
    local = local.replaceAll('.', '') || local;
    domain = provider;
  }
  return `${local}@${domain}`;
}

import type { JobContext } from './job-context';
import type { JobData } from '../queue/job-types';
import { accountActivationMail, accountExistsMail, passwordResetMail } from '../mail/templates';

export async function accountMailJob(
  ctx: JobContext<'accounts'>,
  { accountId, kind }: JobData<'account-mail'>,
): Promise<void> {
  const site = ctx.config.publicUrl;
  if (kind === 'account_exists') {
    const account = await ctx.services.accounts.mailRecipient(accountId);
    if (!account) return;
    const content = accountExistsMail(
      account.firstName,
      `${site}/developer/signin`,
      `${site}/developer/request_password_reset`,
    );
    await ctx.mailer.send({ to: account.email, ...content });
    return;
  }
  // The token is made here, not at enqueue time, so no secret sits in the queue.
  const issued = await ctx.services.accounts.issueLinkToken(accountId, kind);
  if (!issued) return;
  const { account, token } = issued;
  const content =
    kind === 'activation'
      ? accountActivationMail(account.firstName, `${site}/developer/activate_account/${token}`)
      : passwordResetMail(account.firstName, `${site}/developer/reset_password/${token}`);
  await ctx.mailer.send({ to: account.email, ...content });
}

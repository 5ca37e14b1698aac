import type { JobContext } from './job-context';
import type { JobData } from './job-types';
import { accountActivationMail, passwordResetMail } from '../mail/templates';

export async function accountMailJob(
  ctx: JobContext,
  { accountId, kind }: JobData<'account-mail'>,
): Promise<void> {
  // The token is made here, not at enqueue time, so no secret sits in the queue.
  const issued = await ctx.services.accounts.issueLinkToken(accountId, kind);
  if (!issued) return;
  const { account, token } = issued;
  const content =
    kind === 'activation'
      ? accountActivationMail(
          account.firstName,
          `${ctx.config.publicUrl}/developer/activate_account/${token}`,
        )
      : passwordResetMail(account.firstName, `${ctx.config.publicUrl}/developer/reset_password/${token}`);
  await ctx.mailer.send({ to: account.email, ...content });
}

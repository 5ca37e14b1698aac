import { baseSymbol, formatNumber } from '@afrofx/shared';
import type { JobContext } from './job-context';
import type { JobData } from '../queue/job-types';
import { alertConfirmationMail, alertFiredMail } from '../mail/alert-templates';
import { confirmToken, manageToken } from '../modules/alerts/alert-links';

export async function rateAlertConfirmationMailJob(
  ctx: JobContext<'alerts'>,
  { alertId }: JobData<'rate-alert-confirmation-mail'>,
): Promise<void> {
  const pending = await ctx.services.alerts.findForConfirmation(alertId);
  // Removed or already confirmed: nothing left to send.
  if (!pending) return;
  const link = `${ctx.config.publicUrl}/alerts/confirm/${confirmToken(ctx.config.jwtSecret, alertId)}`;
  await ctx.mailer.send({ to: pending.email, ...alertConfirmationMail(pending.alert, link) });
}

export async function rateAlertMailJob(
  ctx: JobContext<'alerts'>,
  { firingId }: JobData<'rate-alert-mail'>,
): Promise<void> {
  const pending = await ctx.services.alerts.pendingFiring(firingId);
  // Sent already (a retry after the commit point), or the alert was removed since.
  if (!pending?.alert.email) return;
  const { alert, firing } = pending;
  const { publicUrl, jwtSecret } = ctx.config;
  const token = manageToken(jwtSecret, alert.email!);
  const replyAddress = ctx.config.mailFrom.replace(/^.*<|>.*$/g, '');
  let recorded = false;
  try {
    await ctx.mailer.send(
      {
        to: alert.email!,
        ...alertFiredMail(
          alert,
          `${baseSymbol(alert.base)}${formatNumber(firing.figure)}`,
          firing.publishedAt,
          `${publicUrl}/alerts/manage/${token}`,
        ),
        messageId: `<alert-${firing.id}@afrofx>`,
        // RFC 2369 and RFC 8058: the mail client's unsubscribe button removes every alert of the address.
        headers: {
          'List-Unsubscribe': `<${publicUrl}/v1/user/alerts/${token}/unsubscribe>, <mailto:${replyAddress}?subject=unsubscribe%20alerts>`,
          'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
        },
      },
      // Recorded as the message is committed: a retried job neither skips nor repeats it.
      async (release) => {
        await ctx.services.alerts.recordSent(firing.id, release);
        recorded = true;
      },
    );
  } catch (err) {
    if (recorded) await ctx.services.alerts.forgetSent(firing.id);
    throw err;
  }
  if (!recorded) await ctx.services.alerts.recordSent(firing.id);
}

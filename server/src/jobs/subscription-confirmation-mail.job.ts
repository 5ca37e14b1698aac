import type { JobContext } from './job-context';
import type { JobData } from '../queue/job-types';
import { subscriptionConfirmationMail } from '../mail/templates';

export async function subscriptionConfirmationMailJob(
  ctx: JobContext<'subscribers'>,
  { subscriberId }: JobData<'subscription-confirmation-mail'>,
): Promise<void> {
  const subscriber = await ctx.services.subscribers.findById(subscriberId);
  // Removed or already confirmed: nothing left to send.
  if (!subscriber || subscriber.isActivated) return;
  await ctx.mailer.send({
    to: subscriber.email,
    ...subscriptionConfirmationMail(`${ctx.config.publicUrl}/confirmation/${subscriber._id}`),
  });
}

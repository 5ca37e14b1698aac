// The hourly lifecycle (DESIGN §4): keeps subscription states and monthly counts and sends the usage warnings
// (payment orders have their own sweep, payment-sweep.job.ts). Idempotent: a second run finds nothing more to do.
import { usageWarningMail } from '../mail/templates';
import type { JobContext } from './job-context';

export const LIFECYCLE_EVERY_MS = 60 * 60 * 1000;

export async function subscriptionLifecycleJob(
  ctx: JobContext<'subscriptionLifecycle'>,
  now = new Date(),
): Promise<void> {
  const result = await ctx.services.subscriptionLifecycle.run(now);
  let failed: unknown;
  for (const warning of result.warnings) {
    try {
      await ctx.mailer.send({
        to: warning.email,
        ...usageWarningMail(warning.firstName, warning, `${ctx.config.publicUrl}/developer/plans`),
      });
    } catch (err) {
      failed = err;
      await ctx.services.subscriptionLifecycle.forgetWarning(warning);
    }
  }
  ctx.log.info({ ...result, warnings: result.warnings.length }, 'subscription lifecycle ran');
  // Thrown after the others were sent, so the queue retries only what is missing.
  if (failed) throw failed;
}

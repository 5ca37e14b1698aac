import { formatUtcDate } from '@afrofx/shared';
import type { JobContext, JobCounts } from './job-context';
import type { JobData } from '../queue/job-types';
import { ratesExportMail } from '../mail/templates';

export async function ratesCsvJob(
  ctx: JobContext<'ratesCsv'>,
  { email }: JobData<'rates-csv'>,
): Promise<JobCounts> {
  const { csv, rowCount } = await ctx.services.ratesCsv.csv();
  try {
    await ctx.mailer.send({
      to: email,
      ...ratesExportMail(rowCount),
      attachments: [
        {
          filename: `afrofx-rates-${formatUtcDate(new Date())}.csv`,
          content: csv,
          contentType: 'text/csv',
        },
      ],
    });
  } finally {
    // A mail that failed before reading the whole file leaves the export paused; stop it (no-op once read).
    csv.destroy();
  }
  return { rates: rowCount };
}

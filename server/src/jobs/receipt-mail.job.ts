// The receipt mail of one payment, sent once however often it is queued (settlement reported twice, a
// retry, the sweep): the sending is recorded at the SMTP commit point, and only the first record lets its dot go.
import type { JobContext } from './job-context';
import type { JobData } from '../queue/job-types';
import { receiptMail } from '../mail/templates';
import { ReceiptAlreadyMailed } from '../modules/payments/receipts.service';

export async function receiptMailJob(
  ctx: JobContext<'receipts'>,
  { reference }: JobData<'receipt-mail'>,
): Promise<void> {
  const receipt = await ctx.services.receipts.due(reference);
  if (!receipt) return;
  let recorded = false;
  try {
    await ctx.mailer.send(
      {
        to: receipt.billedTo.email,
        ...receiptMail(receipt, `${ctx.config.publicUrl}/developer/receipts/${reference}`),
        // Should a crash ever fall between record and dot, a resent message is recognisably the same one.
        messageId: `<receipt-${reference}@afrofx>`,
      },
      async (release) => {
        await ctx.services.receipts.recordMailed(reference, release);
        recorded = true;
      },
    );
  } catch (err) {
    // Another job mailed it between our look-up and our record: this copy never got its final dot.
    if (err instanceof ReceiptAlreadyMailed) return;
    if (recorded) await ctx.services.receipts.forgetMailed(reference);
    throw err;
  }
}

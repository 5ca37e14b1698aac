// The rates mailings some faults interrupt: started on a list of their own, counted in the SMTP sink.
import { activateMailingList, mailingDomain } from './fixtures';
import { sleep, waitUntil } from './processes';
import {
  MAILING_LIMIT_MS,
  MAILING_START_LIMIT_MS,
  type Harness,
  type MailingOutcome,
  type FaultRun,
  seconds,
} from './harness';

// ---- Mailings ------------------------------------------------------------------------------------------------

export interface Mailing {
  id: string;
  /** The domain of this mailing's list: what reached the sink for it, whenever it came. */
  domain: string;
}

export async function startMailing(h: Harness, faultId: string, run: FaultRun): Promise<Mailing> {
  await activateMailingList(h.db, faultId);
  const res = await fetch(`${h.apiUrls[0]}/v1/admin/send_rate_to_mail`, {
    method: 'POST',
    headers: { authorization: `Bearer ${h.adminToken}` },
    signal: AbortSignal.timeout(10_000),
  });
  if (res.status !== 202) throw new Error(`send_rate_to_mail answered ${res.status}: ${await res.text()}`);
  const { recipients } = ((await res.json()) as { data: { recipients: number } }).data;
  if (recipients !== h.fixtures.subscribers)
    run.problems.push(`send_rate_to_mail announced ${recipients} recipients, not ${h.fixtures.subscribers}`);
  const { rows } = await h.db.query<{ id: string }>(
    'SELECT id FROM rate_mailings ORDER BY created_at DESC LIMIT 1',
  );
  return { id: rows[0]!.id, domain: mailingDomain(faultId) };
}

export const deliveriesOf = (h: Harness, mailing: Mailing) =>
  h.smtp.delivered.flatMap((mail) =>
    mail.to
      .map((recipient) => recipient.toLowerCase())
      .filter((recipient) => recipient.endsWith(`@${mailing.domain}`))
      .map((recipient) => ({ recipient, messageId: mail.messageId })),
  );

/** Waits for the mailing to complete (or the limit), then counts what reached the sink for it. */
export async function finishMailing(h: Harness, mailing: Mailing, endedAt: number): Promise<MailingOutcome> {
  const completed = await waitUntil(
    async () => {
      const { rows } = await h.db.query<{ done: boolean }>(
        'SELECT completed_at IS NOT NULL AS done FROM rate_mailings WHERE id = $1',
        [mailing.id],
      );
      return rows[0]?.done === true;
    },
    Math.max(MAILING_LIMIT_MS - (Date.now() - endedAt), 0),
    250,
  );
  const doneAfterMs = completed ? Date.now() - endedAt : undefined;
  // A late duplicate would arrive right after the last recorded recipient.
  await sleep(1500);
  const deliveries = deliveriesOf(h, mailing);
  const distinct = new Set(deliveries.map((d) => d.recipient)).size;
  const distinctMessages = new Set(deliveries.map((d) => `${d.recipient} ${d.messageId}`)).size;
  return {
    delivered: distinct,
    expected: h.fixtures.subscribers,
    duplicates: deliveries.length - distinct,
    resent: deliveries.length - distinctMessages,
    doneAfterMs,
  };
}

/** Starts a mailing, applies `interrupt` once `fraction` of it has reached the sink, and waits for the rest. */
export async function interruptMailing(
  h: Harness,
  faultId: string,
  run: FaultRun,
  fraction: number,
  interrupt: () => Promise<void>,
) {
  const started = Date.now();
  const mailing = await startMailing(h, faultId, run);
  const target = Math.round(h.fixtures.subscribers * fraction);
  if (!(await waitUntil(async () => deliveriesOf(h, mailing).length >= target, MAILING_START_LIMIT_MS, 50)))
    run.problems.push(
      `the mailing did not reach ${target} recipients within ${seconds(MAILING_START_LIMIT_MS)}`,
    );
  run.notes.push(
    `interrupted after ${deliveriesOf(h, mailing).length} mails in ${seconds(Date.now() - started)}`,
  );
  await interrupt();
  const endedAt = Date.now();
  run.ended();
  run.mailing = await finishMailing(h, mailing, endedAt);
}

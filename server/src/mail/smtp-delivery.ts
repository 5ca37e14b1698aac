// One message over one SMTP connection, with the delivery record taken at the SMTP commit point.
//
// A mail server takes a message when it reads the final dot of DATA. A sender that records "sent" after the server's
// answer leaves a window (the answer's trip back, then the database's) in which a killed worker has delivered a
// message it never recorded, and its retry mails that reader twice. Here the body goes out whole, then the record
// is committed, and the dot is written in the same turn of the event loop as the COMMIT: a kill can only fall
// between two socket writes microseconds apart.
import { Readable } from 'node:stream';
import MailComposer from 'nodemailer/lib/mail-composer';
import { parseConnectionUrl } from 'nodemailer/lib/shared';
import SMTPConnection from 'nodemailer/lib/smtp-connection';

/**
 * Records a delivery at the commit point. It commits the record and calls `release` (which lets the final dot go)
 * right after the COMMIT is written; when it throws without calling `release`, the message is abandoned unsent.
 */
export type DeliveryRecord = (release: () => void) => Promise<void>;

type Composed = ConstructorParameters<typeof MailComposer>[0];

/** DESIGN §7: nodemailer's default timeouts are minutes; fail fast so the job retries with backoff. */
const DEFAULT_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

/** Where mail goes: SMTP_URL read the way nodemailer reads it, with the login it carries apart. */
export interface SmtpTarget {
  options: SMTPConnection.Options;
  auth?: { user: string; pass: string };
}

export function smtpTarget(smtpUrl: string): SmtpTarget {
  const { auth, ...options } = parseConnectionUrl(smtpUrl);
  return { options: { ...DEFAULT_TIMEOUTS, ...(options as SMTPConnection.Options) }, auth };
}

/** An open connection, logged in when the URL carries credentials, and its first error (it may emit several). */
async function open({
  options,
  auth,
}: SmtpTarget): Promise<{ connection: SMTPConnection; failed: Promise<never> }> {
  const connection = new SMTPConnection(options);
  const failed = new Promise<never>((_, reject) => connection.on('error', reject));
  // Only ever awaited in a race; a connection that fails once the work is done is nobody's concern.
  failed.catch(() => undefined);
  const step = (action: (done: (err?: Error | null) => void) => void) =>
    Promise.race([
      failed,
      new Promise<void>((resolve, reject) => action((err) => (err ? reject(err) : resolve()))),
    ]);
  try {
    await step((done) => connection.connect(done));
    if (auth) await step((done) => connection.login(auth, done));
  } catch (err) {
    connection.close();
    throw err;
  }
  return { connection, failed };
}

export async function verifySmtp(target: SmtpTarget): Promise<void> {
  const { connection } = await open(target);
  connection.quit();
}

/**
 * The message as the SMTP connection reads it. It starts composing only when the connection reads it (after the
 * server's 354), and once the body has all been pushed and the connection asks for more, it waits for `atEnd` to let
 * the end through. What the connection has not yet taken (under one buffer) follows the record within the same few
 * ticks as the dot.
 */
class HeldEndMessage extends Readable {
  private source?: Readable;
  private sourceEnded = false;
  /** A read the source has not answered yet: Readable asks again only after a push. */
  private readPending = false;
  private ended = false;

  constructor(
    private readonly composeBody: () => Readable,
    private readonly atEnd: (end: () => void) => void,
  ) {
    super();
  }

  override _read(): void {
    this.readPending = true;
    if (!this.source) {
      this.source = this.composeBody();
      this.source.on('data', (chunk: Buffer) => {
        this.readPending = false;
        if (!this.push(chunk)) this.source!.pause();
      });
      this.source.on('end', () => {
        this.sourceEnded = true;
        if (this.readPending) this.reachEnd();
      });
      this.source.on('error', (err) => this.destroy(err));
      return;
    }
    if (this.sourceEnded) this.reachEnd();
    else this.source.resume();
  }

  private reachEnd(): void {
    if (this.ended) return;
    this.ended = true;
    this.atEnd(() => this.push(null));
  }
}

export async function sendOverSmtp(
  target: SmtpTarget,
  mail: Composed,
  record?: DeliveryRecord,
): Promise<void> {
  const composed = new MailComposer(mail).compile();
  const { connection, failed } = await open(target);
  let recorded: Promise<void> = Promise.resolve();
  let released = false;
  const message = new HeldEndMessage(
    () => composed.createReadStream(),
    (end) => {
      if (!record) return end();
      recorded = record(() => {
        released = true;
        end();
      });
      // A record that fails before letting the dot go leaves the message unsent: the connection drops mid-DATA.
      recorded.catch((err: unknown) => {
        if (!released) message.destroy(err instanceof Error ? err : new Error(String(err)));
      });
    },
  );
  const sent = Promise.race([
    failed,
    new Promise<void>((resolve, reject) => {
      connection.send(composed.getEnvelope(), message, (err) => (err ? reject(err) : resolve()));
    }),
  ]);
  const sendError = await sent.then(
    () => undefined,
    (err: unknown) => err,
  );
  // Set once the body was all read; after a failed send it may still be settling.
  const recordError = await recorded.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (sendError === undefined && recordError === undefined) {
    connection.quit();
    return;
  }
  connection.close();
  throw recordError ?? sendError;
}

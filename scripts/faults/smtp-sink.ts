// The mail server of the fault run, inside the harness: it records every message that reaches it (each envelope
// recipient and the Message-ID), and can be stopped and started again on the same port, refusing connections in
// between as a dead mail relay does.
import { SMTPServer } from 'smtp-server';
import { SMTPConnection } from 'smtp-server/lib/smtp-connection.js';
import { freePort } from './processes';

// smtp-server holds every greeting back 100 ms to catch clients that talk too early. The mailer opens a connection
// per message, so a 1,000-mail run would measure that wait (100 s) instead of the product: greet at once.
SMTPConnection.prototype.init = function (this: SMTPConnection) {
  this._setListeners(() => this.connectionReady());
};

export interface DeliveredMail {
  recipient: string;
  messageId: string;
}

export interface SmtpSink {
  readonly url: string;
  /** Every recipient of every message accepted so far, in arrival order. */
  readonly delivered: readonly DeliveredMail[];
  start(): Promise<void>;
  stop(): Promise<void>;
}

const MESSAGE_ID = /^message-id:\s*(\S+)/im;

export async function createSmtpSink(): Promise<SmtpSink> {
  const port = await freePort();
  const delivered: DeliveredMail[] = [];
  let server: SMTPServer | undefined;

  const open = () =>
    new SMTPServer({
      authOptional: true,
      // No STARTTLS offer: the sink has no certificate the mailer would trust.
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      disableReverseLookup: true,
      closeTimeout: 100,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const headers = text.slice(0, text.search(/\r?\n\r?\n/));
          const messageId = MESSAGE_ID.exec(headers)?.[1] ?? '';
          for (const rcpt of session.envelope.rcptTo) {
            delivered.push({ recipient: rcpt.address.toLowerCase(), messageId });
          }
          callback();
        });
      },
    });

  return {
    url: `smtp://127.0.0.1:${port}`,
    delivered,
    async start() {
      const starting = open();
      await new Promise<void>((resolve, reject) => {
        starting.server.once('error', reject);
        starting.listen(port, '127.0.0.1', () => resolve());
      });
      starting.on('error', () => {
        // A client that drops its connection mid-message is the client's problem, not the sink's.
      });
      server = starting;
    },
    async stop() {
      const stopping = server;
      server = undefined;
      if (stopping) await new Promise<void>((resolve) => stopping.close(() => resolve()));
    },
  };
}

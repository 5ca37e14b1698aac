// A real SMTP server (smtp-server) that records every message it accepts, for tests that count deliveries. It can be
// stopped, refusing connections like a mail server that is down, and started again on the same port.
import { SMTPServer } from 'smtp-server';
import { SMTPConnection } from 'smtp-server/lib/smtp-connection.js';

// smtp-server holds every greeting back 100 ms to catch clients that talk too early. The mailer opens a connection
// per message, so a mailing to 1,000 readers would measure that wait (100 s) instead of the product: greet at once.
SMTPConnection.prototype.init = function (this: SMTPConnection) {
  this._setListeners(() => this.connectionReady());
};

export interface DeliveredMail {
  to: string[];
  messageId: string | undefined;
  raw: string;
}

export interface SmtpSink {
  readonly url: string;
  readonly delivered: DeliveredMail[];
  /**
   * Runs when a message's final dot has arrived, before the server answers; when it throws, the message is refused
   * with 451 and not delivered.
   */
  beforeAccepting?: (mail: DeliveredMail) => Promise<void>;
  /** Bytes of messages whose DATA has begun and whose final dot has not arrived yet. */
  readonly receiving: number;
  /** Connections closed so far, by either side. */
  readonly closedConnections: number;
  /** Called after each accepted message has been answered. */
  onDelivered?: (mail: DeliveredMail) => void;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  let server: SMTPServer | undefined;
  let port = 0;
  let receiving = 0;
  let closedConnections = 0;
  const listen = async () => {
    const current = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      closeTimeout: 100,
      onClose: () => void (closedConnections += 1),
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          receiving += chunk.length;
        });
        stream.on('end', () => {
          receiving -= chunks.reduce((n, chunk) => n + chunk.length, 0);
          const raw = Buffer.concat(chunks).toString('utf8');
          const mail = {
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            messageId: /^Message-ID:\s*(\S+)/im.exec(raw)?.[1],
            raw,
          };
          const accept = () => {
            sink.delivered.push(mail);
            callback();
            setImmediate(() => sink.onDelivered?.(mail));
          };
          if (!sink.beforeAccepting) return accept();
          sink
            .beforeAccepting(mail)
            .then(accept, (err: Error) => callback(Object.assign(err, { responseCode: 451 })));
        });
      },
    });
    // A client killed mid-conversation resets its connection; a mail server logs that and goes on serving.
    current.on('error', () => undefined);
    await new Promise<void>((resolve) => current.listen(port, '127.0.0.1', resolve));
    port = (current.server.address() as { port: number }).port;
    server = current;
  };
  const stopListening = async () => {
    const current = server;
    server = undefined;
    if (current) await new Promise<void>((resolve) => current.close(() => resolve()));
  };

  await listen();
  const sink: SmtpSink = {
    url: `smtp://127.0.0.1:${port}`,
    delivered: [],
    get receiving() {
      return receiving;
    },
    get closedConnections() {
      return closedConnections;
    },
    stop: stopListening,
    start: listen,
    close: stopListening,
  };
  return sink;
}

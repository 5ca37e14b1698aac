import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { access, constants, mkdir, rename } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import nodemailer from 'nodemailer';
import { sendOverSmtp, smtpTarget, verifySmtp, type DeliveryRecord } from './smtp-delivery';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** A stream is read while the message is sent, so a large attachment is never held in memory whole. */
  attachments?: Array<{ filename: string; content: string | Buffer | Readable; contentType: string }>;
  /** A fixed Message-ID makes a message resent after a crash recognisable as the same one. */
  messageId?: string;
  /** Extra header fields, such as List-Unsubscribe. */
  headers?: Record<string, string>;
}

export interface Mailer {
  /** 'smtp' or the outbox folder the .eml files go to. */
  readonly target: string;
  /**
   * With `record`, the delivery is recorded at the commit point: over SMTP after the body and before the final dot
   * (see smtp-delivery.ts), in the outbox once the file is complete.
   */
  send(message: MailMessage, record?: DeliveryRecord): Promise<void>;
  /** Throws when mail cannot go out now: the SMTP server refuses a connection or login, or the outbox is not writable. */
  ping(): Promise<void>;
  close(): void;
}

interface MailerOptions {
  smtpUrl?: string;
  from: string;
  outboxDir: string;
  /** The outbox logs each message's links (reset, activation) for development; never in production logs. */
  logLinks: boolean;
  log: { info(obj: object, msg: string): void };
}

const LINK = /https?:\/\/[^\s"'<>]+/g;

export function createMailer(options: MailerOptions): Mailer {
  if (options.smtpUrl) {
    const smtp = smtpTarget(options.smtpUrl);
    return {
      target: 'smtp',
      send: (message, record) => sendOverSmtp(smtp, { from: options.from, ...message }, record),
      ping: () => verifySmtp(smtp),
      close: () => undefined,
    };
  }

  // Written as it is built, so a large attachment (the rates CSV) is never held in memory whole.
  const transport = nodemailer.createTransport({ streamTransport: true, newline: 'unix' });
  return {
    target: options.outboxDir,
    async send(message, record) {
      const info = await transport.sendMail({ from: options.from, ...message });
      await mkdir(options.outboxDir, { recursive: true });
      const file = path.join(
        options.outboxDir,
        `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(3).toString('hex')}.eml`,
      );
      // Under another name until complete, so nobody reading the outbox sees half a message.
      await pipeline(info.message as Readable, createWriteStream(`${file}.part`));
      await rename(`${file}.part`, file);
      await record?.(() => undefined);
      const links = options.logLinks ? { links: [...new Set(message.text.match(LINK) ?? [])] } : {};
      options.log.info(
        { to: message.to, subject: message.subject, file, ...links },
        'mail written to the outbox',
      );
    },
    async ping() {
      await mkdir(options.outboxDir, { recursive: true });
      await access(options.outboxDir, constants.W_OK);
    },
    close: () => transport.close(),
  };
}

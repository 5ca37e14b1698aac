// The one pino logger of a process. Activation tokens, reset codes, subscription ids and keys travel in paths,
// bodies and headers; no log line may carry one (issue 7, finding 9), whoever writes it.
import pino, { type DestinationStream, type Logger } from 'pino';
import pretty, { type PrettyOptions } from 'pino-pretty';
import type { Config } from './config';

const REDACTED = '[redacted]';
/** Path segments that are secrets: the link routes of the API and of the web app. */
const SECRET_SEGMENT = /(\/(?:activate_account|confirmation|reset_password)\/)[^/?#]+/g;
const SECRET_QUERY = /([?&](?:code|token|key|password)=)[^&#]*/gi;

export const redactUrl = (url: string) =>
  url.replace(SECRET_SEGMENT, `$1${REDACTED}`).replace(SECRET_QUERY, `$1${REDACTED}`);

interface LoggedRequest {
  method: string;
  url: string;
  ip?: string;
  host?: string;
  socket?: { remotePort?: number };
}

type MessageFormat = Extract<PrettyOptions['messageFormat'], (...args: never[]) => unknown>;

/**
 * A mail's links (the outbox logs them outside production) stand on lines of their own, highlighted, so a developer
 * finds the activation link among the request lines.
 */
const withMailLinks: MessageFormat = (entry, messageKey, _level, { colors }) => {
  const message = String(entry[messageKey]);
  const links = Array.isArray(entry.links) ? (entry.links as string[]) : [];
  if (links.length === 0) return message;
  return [message, ...links.map((link) => `    ${colors.bold(colors.cyan('✉ ' + link))}`)].join('\n');
};

/** Development: coloured lines with the time of day, the mail links on their own; pino's JSON everywhere else. */
export function prettyDestination(
  output: NodeJS.WritableStream = process.stdout,
  colorize = pretty.isColorSupported,
): DestinationStream {
  return pretty({
    destination: output,
    colorize,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname,links',
    messageFormat: withMailLinks,
    // Lines reach the terminal as they are written, so an interrupted `npm start` loses none.
    sync: true,
  });
}

export function createLogger(
  config: Pick<Config, 'logLevel' | 'logFormat'>,
  destination?: DestinationStream,
): Logger {
  return pino(
    {
      level: config.logLevel,
      redact: {
        paths: [
          '*.headers.authorization',
          '*.headers.cookie',
          '*.authorization',
          ...['password', 'oldPassword', 'newPassword', 'code', 'token'].flatMap((field) => [
            field,
            `*.${field}`,
            `*.body.${field}`,
          ]),
        ],
        censor: REDACTED,
      },
      serializers: {
        // Fastify logs each request through this (its own serializer gives way to the logger's).
        req: (request: LoggedRequest) => ({
          method: request.method,
          url: redactUrl(request.url),
          host: request.host,
          remoteAddress: request.ip,
          remotePort: request.socket?.remotePort,
        }),
      },
    },
    destination ?? (config.logFormat === 'pretty' ? prettyDestination() : undefined),
  );
}

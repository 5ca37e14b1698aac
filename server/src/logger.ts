// The one pino logger of a process. Activation tokens, reset codes, subscription ids and keys travel in paths,
// bodies and headers; no log line may carry one (issue 7, finding 9), whoever writes it.
import pino, { type DestinationStream, type Logger } from 'pino';
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

export function createLogger(config: Pick<Config, 'logLevel'>, destination?: DestinationStream): Logger {
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
    destination,
  );
}

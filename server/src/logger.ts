// The one pino logger of a process. Activation tokens, reset codes, subscription ids and keys travel in paths,
// bodies and headers; no log line may carry one (issue 7, finding 9), whoever writes it.
import pino, { type DestinationStream, type Logger } from 'pino';
import pretty, { type PrettyOptions } from 'pino-pretty';
import type { Config } from './config';

const REDACTED = '[redacted]';
/** Link routes whose next path segment is a secret (an activation token, a reset code, a subscription id). */
const LINK_ROUTES = new Set(['activate_account', 'confirmation', 'reset_password', 'unsubscribe']);
/**
 * Issue 21: redaction by rule, not by a list of paths. A path segment shaped like a credential (a prefixed key, a
 * signed `<id>.<signature>` token or a JWT, a long opaque string) is redacted wherever it appears.
 */
const TOKEN_SEGMENT = /^(?:(?:sk|pk|rk|whsec)_[\w-]+|[^.]+\.[^.]{16,}.*|[A-Za-z0-9_-]{40,})$/;
/** A query parameter named like a credential: api_key, apikey, key, token, code, signature, secret, password… */
const CREDENTIAL_NAME = /key|token|code|sig|secret|passw|pwd|auth/i;

function redactSegments(path: string): string {
  const segments = path.split('/');
  return segments
    .map((segment, i) =>
      i > 0 && (LINK_ROUTES.has(segments[i - 1]!) || TOKEN_SEGMENT.test(segment)) ? REDACTED : segment,
    )
    .join('/');
}

function redactQuery(query: string): string {
  return query.replace(/(^|&)([^=&#]*)=([^&#]*)/g, (whole: string, lead: string, name: string) => {
    let decoded = name;
    try {
      decoded = decodeURIComponent(name);
    } catch {
      // A malformed escape is logged as sent; its raw name still decides.
    }
    return CREDENTIAL_NAME.test(decoded) ? `${lead}${name}=${REDACTED}` : whole;
  });
}

/** The URL as it may be logged or stored in request_logs: no credential in a path segment or query parameter. */
export function redactUrl(url: string): string {
  const at = url.search(/[?#]/);
  if (at < 0) return redactSegments(url);
  const rest = url.slice(at + 1);
  return `${redactSegments(url.slice(0, at))}${url[at]}${url[at] === '?' ? redactQuery(rest) : rest}`;
}

/** Database errors (drizzle's "Failed query … params: …") carry the statement's values, which may be secrets. */
function withoutQueryParams(err: unknown) {
  const serialized = pino.stdSerializers.err(err as Error) as ReturnType<typeof pino.stdSerializers.err> & {
    params?: unknown;
  };
  delete serialized.params;
  serialized.message = serialized.message?.replace(/\nparams: [\s\S]*$/, '');
  if (serialized.stack) serialized.stack = serialized.stack.replace(/\nparams: [^\n]*/, '');
  return serialized;
}

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
        err: withoutQueryParams,
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

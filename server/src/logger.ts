// The one pino logger of a process. Activation tokens, reset codes, subscription ids and keys travel in paths,
// bodies and headers; no log line may carry one, whoever writes it.
import pino, { type DestinationStream, type Logger } from 'pino';
import pretty, { type PrettyOptions } from 'pino-pretty';
import type { Config } from './config';

const REDACTED = '[redacted]';
/** Link routes whose next path segment is a secret (an activation token, a reset code, a subscription id). */
const LINK_ROUTES = new Set(['activate_account', 'confirmation', 'reset_password', 'unsubscribe']);
/**
 * Redaction by rule, not by a list of paths. A path segment shaped like a credential (a prefixed key, a
 * signed `<id>.<signature>` token or a JWT, a long opaque string) is redacted wherever it appears.
 */
const TOKEN_SEGMENT = /^(?:(?:sk|pk|rk|whsec)_[\w-]+|[^.]+\.[^.]{16,}.*|[A-Za-z0-9_-]{40,})$/;
/**
 * A query parameter named like a credential: api_key, apikey, key, token, code, signature, secret, jwt, and any
 * password parameter (password, pass, passwd, pwd, pw, user_pw…), and app_id, where Open Exchange Rates' clients
 * send the key.
 */
const CREDENTIAL_NAME = /key|token|code|sig|secret|pass|pwd|pw|auth|jwt|^app_id$/i;
/**
 * A value shaped like an AfroFX secret or a JWT, whatever it is called and wherever it stands: a private key
 * (`sk_`, api-key-material.ts), a webhook signing secret (`afxsig_`, and `whsec_`/`rk_` of other services), or a
 * JWT (base64url JSON header, payload and signature). An underscore sent as `%5F` is the same key.
 */
const SECRET_VALUE =
  /(?:sk|rk|whsec|afxsig)(?:_|%5f)[A-Za-z0-9_%-]{12,}|eyJ[A-Za-z0-9_-]{4,}(?:\.|%2e)[A-Za-z0-9_-]{4,}(?:\.|%2e)[A-Za-z0-9_-]*/gi;
/** `name=value` in a line of text where the name is a password parameter's. */
const PASSWORD_PAIR = /([A-Za-z0-9_.-]*(?:pass|pwd|pw)[A-Za-z0-9_.-]*=)[^&\s"'#\\]+/gi;

/** A line of text with every value shaped like a secret, and every password parameter's value, redacted. */
export function redactText(text: string): string {
  return text.replace(SECRET_VALUE, REDACTED).replace(PASSWORD_PAIR, `$1${REDACTED}`);
}

function redactSegments(path: string): string {
  const segments = path.split('/');
  return segments
    .map((segment, i) =>
      i > 0 && (LINK_ROUTES.has(segments[i - 1]!) || TOKEN_SEGMENT.test(segment)) ? REDACTED : segment,
    )
    .join('/');
}

function redactQuery(query: string): string {
  return query.replace(
    /(^|&)([^=&#]*)=([^&#]*)/g,
    (whole: string, lead: string, name: string, value: string) => {
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // A malformed escape is logged as sent; its raw name still decides.
      }
      return CREDENTIAL_NAME.test(decoded) || decodedSecret(value) ? `${lead}${name}=${REDACTED}` : whole;
    },
  );
}

/** A value that is a secret once decoded (a key sent percent-encoded is as secret). */
function decodedSecret(value: string): boolean {
  let decoded = value;
  try {
    decoded = decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    // A malformed escape is judged as sent.
  }
  SECRET_VALUE.lastIndex = 0;
  return SECRET_VALUE.test(decoded);
}

/**
 * The URL as it may be logged or stored in request_logs: no credential in a path segment or query parameter, and no
 * value shaped like a secret anywhere in it.
 */
export function redactUrl(url: string): string {
  const at = url.search(/[?#]/);
  if (at < 0) return redactText(redactSegments(url));
  const rest = url.slice(at + 1);
  return redactText(
    `${redactSegments(url.slice(0, at))}${url[at]}${url[at] === '?' ? redactQuery(rest) : rest}`,
  );
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
      // The last word on every line, whoever wrote it and whatever the field: a message, an error, a header.
      hooks: { streamWrite: redactText },
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

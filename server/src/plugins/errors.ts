// One error handler (DESIGN §4): { message, statusCode, error } with the right status, never a stack trace.
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { CALENDAR_DATE_PATTERN, FIRST_CALENDAR_DAY, ID_PATTERN, LAST_CALENDAR_DAY } from '@afrofx/shared';
import { DomainError, RetryLater } from '../errors';

const STATUS_NAMES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

interface ValidationIssue {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * For a route a person reaches through an e-mailed link: a malformed value of these fields is the link's fault,
     * not theirs, and is answered with the link's message instead of a schema sentence.
     */
    invalidLink?: { fields: string[]; message: string };
  }
}

// The names of fields as the forms label them; any other name is written out from its camelCase or snake_case.
const FIELD_LABELS: Record<string, string> = {
  email: 'E-mail address',
  first_name: 'First name',
  firstName: 'First name',
  last_name: 'Last name',
  lastName: 'Last name',
  oldPassword: 'Current password',
  numberOfRequest: 'Requests per month',
  mail_type: 'Mail type',
  url: 'URL',
};

// What a pattern asks for, in words, where it is more than a set of allowed characters.
const PATTERN_RULES: Record<string, string> = {
  '^https?://': 'must start with http:// or https://',
  [CALENDAR_DATE_PATTERN]: `must be a day from ${FIRST_CALENDAR_DAY} to ${LAST_CALENDAR_DAY}`,
};

/** The field's label as a person reads it: `newPassword` is "New password", `app_id` is "App id". */
export function fieldLabel(name: string): string {
  const known = FIELD_LABELS[name];
  if (known) return known;
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_.-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The name of the field a schema violation is about: the property missing, or the last step of its path. */
export function issueField(issue: ValidationIssue, context: string | undefined): string {
  if (issue.keyword === 'required') return String(issue.params.missingProperty);
  if (issue.keyword === 'additionalProperties') return String(issue.params.additionalProperty);
  // An item of a list is named by its list: `/events/0` is about "events".
  const path = issue.instancePath.split('/').filter((step) => step !== '' && !/^\d+$/.test(step));
  return path.at(-1) ?? context ?? 'request';
}

/**
 * Every schema violation as one sentence a person understands (words for people), naming the field as the
 * forms label it. The one place schema errors become words; the web shows these messages as they are.
 */
export function describeValidation(issue: ValidationIssue, context: string | undefined): string {
  const name = issueField(issue, context);
  // A form's field by its label; a parameter of the address by its exact name, which is what a developer types.
  const label =
    context === 'querystring' || context === 'params' ? `The ${name} parameter` : fieldLabel(name);
  switch (issue.keyword) {
    case 'required':
      return `${label} is required.`;
    // The contracts' one `not` is Text's: a name of spaces only is no name.
    case 'not':
      return `${label} is required.`;
    case 'additionalProperties':
      return context === 'querystring'
        ? `${label} is not accepted here.`
        : `The field "${name}" is not accepted here.`;
    case 'enum':
      return `${label} must be one of: ${(issue.params.allowedValues as unknown[]).join(', ')}.`;
    case 'type':
      return issue.params.type === 'integer'
        ? `${label} must be a whole number.`
        : issue.params.type === 'number'
          ? `${label} must be a number.`
          : `${label} must be ${issue.params.type === 'object' ? 'an object' : `a ${String(issue.params.type)}`}.`;
    case 'format':
      return issue.params.format === 'email'
        ? 'Please enter a valid e-mail address, like name@example.com.'
        : issue.params.format === 'uuid'
          ? `${label} is not a valid id.`
          : `${label} must be a valid ${String(issue.params.format)}.`;
    case 'pattern':
      if (issue.params.pattern === ID_PATTERN) return `${label} is not a valid id.`;
      return `${label} ${PATTERN_RULES[String(issue.params.pattern)] ?? 'contains characters that are not allowed'}.`;
    case 'finite':
      return `${label} must be a finite number.`;
    case 'wellFormed':
      return `${label} contains a character that is not valid text (a lone surrogate).`;
    case 'exclusiveMinimum':
      return `${label} must be greater than ${String(issue.params.limit)}.`;
    case 'minimum':
      return `${label} must be at least ${String(issue.params.limit)}.`;
    case 'maximum':
      return `${label} must be at most ${String(issue.params.limit)}.`;
    case 'minLength':
      return Number(issue.params.limit) <= 1
        ? `${label} is required.`
        : `${label} must be at least ${String(issue.params.limit)} characters.`;
    case 'maxLength':
      return `${label} must be at most ${String(issue.params.limit)} characters.`;
    default:
      return `${label} is not valid.`;
  }
}

/** How long the busy answers after a logged one are counted before their one line is written. */
const BUSY_LINE_MS = 60_000;

/**
 * Busy answers (503 with Retry-After) are the server protecting itself, and a flood of sign-ups makes dozens of them
 * in one turn of the event loop, each alike: a line apiece held the paying customers' calls behind their writing. The
 * first is logged as it happens, with its request; those of the next minute are counted per route and written as one
 * line when the minute ends, or when the server closes.
 */
function busyAnswerLog(app: FastifyInstance) {
  let counting: { since: number; routes: Map<string, number>; timer: NodeJS.Timeout } | undefined;
  function writeCount() {
    if (!counting) return;
    const { since, routes, timer } = counting;
    clearTimeout(timer);
    counting = undefined;
    if (routes.size === 0) return;
    let answers = 0;
    for (const n of routes.values()) answers += n;
    app.log.warn(
      {
        statusCode: 503,
        answers,
        routes: Object.fromEntries(routes),
        seconds: Math.round((Date.now() - since) / 1000),
      },
      'more requests turned away as busy',
    );
  }
  app.addHook('onClose', async () => writeCount());
  return (request: FastifyRequest, message: string) => {
    if (!counting) {
      request.log.warn({ statusCode: 503 }, message);
      counting = {
        since: Date.now(),
        routes: new Map(),
        timer: setTimeout(writeCount, BUSY_LINE_MS).unref(),
      };
      return;
    }
    const route = `${request.method} ${request.routeOptions.url ?? request.url}`;
    counting.routes.set(route, (counting.routes.get(route) ?? 0) + 1);
  };
}

export const errorsPlugin = fp(
  async (app: FastifyInstance) => {
    const logBusyAnswer = busyAnswerLog(app);
    app.setErrorHandler((err: FastifyError, request, reply) => {
      let statusCode = err instanceof DomainError ? err.statusCode : (err.statusCode ?? 500);
      let message = err.message;
      if (err.validation && err.validation.length > 0) {
        statusCode = 400;
        const issue = err.validation[0] as ValidationIssue;
        const link = request.routeOptions.config.invalidLink;
        message =
          link && link.fields.includes(issueField(issue, err.validationContext))
            ? link.message
            : describeValidation(issue, err.validationContext);
      } else if (statusCode >= 500) {
        if (err instanceof RetryLater) logBusyAnswer(request, err.message);
        else request.log.error({ err }, 'request failed');
        // A DomainError's message is written for the user (a 503 says to try again); any other stays hidden.
        if (!(err instanceof DomainError)) message = 'Something went wrong on our side. Please try again.';
      } else if (statusCode < 400) {
        statusCode = 500;
      }
      if (statusCode === 429 && !message) message = 'Too many requests. Please slow down.';
      if (err instanceof RetryLater) void reply.header('retry-after', err.retryAfterSeconds);
      void reply.status(statusCode).send({ message, statusCode, error: STATUS_NAMES[statusCode] ?? 'Error' });
    });
  },
  { name: 'errors' },
);

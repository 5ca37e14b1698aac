// One error handler (DESIGN §4): { message, statusCode, error } with the right status, never a stack trace.
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ID_PATTERN } from '@afrofx/shared';
import { DomainError } from '../errors';

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

/** Turns the first schema violation into a sentence that names the parameter. */
export function describeValidation(issue: ValidationIssue, context: string | undefined): string {
  const path = issue.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const field = path || context || 'request';
  switch (issue.keyword) {
    case 'required':
      return `${String(issue.params.missingProperty)} is required`;
    case 'additionalProperties':
      return `${String(issue.params.additionalProperty)} is not an accepted field`;
    case 'enum':
      return `${field} must be one of: ${(issue.params.allowedValues as unknown[]).join(', ')}`;
    case 'type':
      return `${field} must be a ${issue.params.type === 'integer' ? 'whole number' : String(issue.params.type)}`;
    case 'format':
      return issue.params.format === 'email'
        ? `${field} must be a valid e-mail address`
        : issue.params.format === 'uuid'
          ? `${field} is not a valid id`
          : `${field} must be a valid ${String(issue.params.format)}`;
    case 'pattern':
      return issue.params.pattern === ID_PATTERN
        ? `${field} is not a valid id`
        : `${field} contains characters that are not allowed`;
    case 'exclusiveMinimum':
      return `${field} must be greater than ${String(issue.params.limit)}`;
    case 'minimum':
      return `${field} must be at least ${String(issue.params.limit)}`;
    case 'maximum':
      return `${field} must be at most ${String(issue.params.limit)}`;
    case 'minLength':
      return Number(issue.params.limit) <= 1
        ? `${field} is required`
        : `${field} must be at least ${String(issue.params.limit)} characters`;
    case 'maxLength':
      return `${field} must be at most ${String(issue.params.limit)} characters`;
    default:
      return `${field} ${issue.message ?? 'is invalid'}`;
  }
}

export const errorsPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((err: FastifyError, request, reply) => {
      let statusCode = err instanceof DomainError ? err.statusCode : (err.statusCode ?? 500);
      let message = err.message;
      if (err.validation && err.validation.length > 0) {
        statusCode = 400;
        message = describeValidation(err.validation[0] as ValidationIssue, err.validationContext);
      } else if (statusCode >= 500) {
        request.log.error({ err }, 'request failed');
        // A DomainError's message is written for the user (a 503 says to try again); any other stays hidden.
        if (!(err instanceof DomainError)) message = 'Something went wrong on our side. Please try again.';
      } else if (statusCode < 400) {
        statusCode = 500;
      }
      if (statusCode === 429 && !message) message = 'Too many requests. Please slow down.';
      void reply.status(statusCode).send({ message, statusCode, error: STATUS_NAMES[statusCode] ?? 'Error' });
    });
  },
  { name: 'errors' },
);

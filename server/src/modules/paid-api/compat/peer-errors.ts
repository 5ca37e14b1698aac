// Errors of the compatible calls in their peer's shape. Every refusal of a paid call (key, plan, quota, burst,
// entitlement, a bad parameter) is the errors plugin's { message, statusCode, error }; on these calls a
// preSerialization hook rewrites it as Open Exchange Rates' or Fixer's error body, so no rule is written twice.
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DomainError } from '../../../errors';

/** Faults the compatible calls name themselves; others are named from their status. */
export type PeerFaultKind = 'invalid_base' | 'invalid_currency' | 'no_rates' | 'invalid_date';

declare module 'fastify' {
  interface FastifyRequest {
    /** What a compatible call refused, for its peer's error code. */
    peerFault?: PeerFaultKind;
  }
}

const FAULT_STATUS: Record<PeerFaultKind, number> = {
  invalid_base: 400,
  invalid_currency: 400,
  no_rates: 404,
  invalid_date: 400,
};

/** A refusal of a compatible call, named for its peer's error code. */
export function peerFault(request: FastifyRequest, kind: PeerFaultKind, message: string) {
  request.peerFault = kind;
  return new DomainError(FAULT_STATUS[kind], message);
}

interface ErrorBody {
  message: string;
  statusCode: number;
  error: string;
}
const isErrorBody = (payload: unknown): payload is ErrorBody =>
  typeof payload === 'object' &&
  payload !== null &&
  typeof (payload as ErrorBody).statusCode === 'number' &&
  typeof (payload as ErrorBody).message === 'string';

const keyMissing = (request: FastifyRequest) =>
  !request.headers.authorization &&
  !(request.query as Record<string, unknown> | undefined)?.app_id &&
  !(request.query as Record<string, unknown> | undefined)?.access_key;

/** Open Exchange Rates' message codes (its documented errors), by fault or status. */
function oxrCode(request: FastifyRequest, status: number) {
  if (request.peerFault) return request.peerFault === 'no_rates' ? 'not_found' : request.peerFault;
  switch (status) {
    case 401:
      return keyMissing(request) ? 'missing_app_id' : 'invalid_app_id';
    case 402:
    case 403:
      return 'not_allowed';
    case 404:
      return 'not_found';
    case 429:
      return 'access_restricted';
    default:
      return status >= 500 ? 'server_error' : 'invalid_request';
  }
}

/** Fixer's numeric codes and types (its documented errors), by fault or status. */
function fixerCode(request: FastifyRequest, status: number): { code: number; type: string } {
  switch (request.peerFault) {
    case 'invalid_base':
      return { code: 201, type: 'invalid_base_currency' };
    case 'invalid_currency':
      return { code: 202, type: 'invalid_currency_codes' };
    case 'no_rates':
      return { code: 106, type: 'no_rates_available' };
    case 'invalid_date':
      return { code: 302, type: 'invalid_date' };
  }
  switch (status) {
    case 401:
      return keyMissing(request)
        ? { code: 101, type: 'missing_access_key' }
        : { code: 101, type: 'invalid_access_key' };
    case 402:
      return { code: 102, type: 'inactive_user' };
    case 403:
      return { code: 105, type: 'function_access_restricted' };
    case 404:
      return { code: 103, type: 'invalid_api_function' };
    case 429:
      return { code: 104, type: 'usage_limit_reached' };
    default:
      return status >= 500 ? { code: 500, type: 'server_error' } : { code: 400, type: 'invalid_request' };
  }
}

export type Peer = 'oxr' | 'fixer';

/** Rewrites the scope's error bodies in the peer's shape (the status and headers stay as they are). */
export function peerErrors(app: FastifyInstance, peer: Peer) {
  app.addHook('preSerialization', (request, reply, payload, done) => {
    if (reply.statusCode < 400 || !isErrorBody(payload)) return done(null, payload);
    const status = payload.statusCode;
    if (peer === 'oxr')
      return done(null, {
        error: true,
        status,
        message: oxrCode(request, status),
        description: payload.message,
      });
    done(null, { success: false, error: { ...fixerCode(request, status), info: payload.message } });
  });
}

/** Open Exchange Rates' error body. */
export const OxrError = Type.Object({
  error: Type.Literal(true),
  status: Type.Integer({ minimum: 400, maximum: 599, examples: [400] }),
  message: Type.String({
    description: 'The error code, as Open Exchange Rates names it',
    examples: ['invalid_base'],
  }),
  description: Type.String({ examples: ['base: XYZ is not a currency AfroFX carries.'] }),
});

/** Fixer's error body. */
export const FixerError = Type.Object({
  success: Type.Literal(false),
  error: Type.Object({
    code: Type.Integer({ minimum: 100, maximum: 599, examples: [202] }),
    type: Type.String({
      description: 'The error type, as Fixer names it',
      examples: ['invalid_currency_codes'],
    }),
    info: Type.String({ examples: ['symbols: EUR against USD is not a pair AfroFX publishes.'] }),
  }),
});

/** The error responses of a compatible call, in its peer's shape. */
export function peerErrorResponses(peer: Peer) {
  const schema = peer === 'oxr' ? OxrError : FixerError;
  return Object.fromEntries([400, 401, 402, 403, 404, 429, 500].map((status) => [status, schema]));
}

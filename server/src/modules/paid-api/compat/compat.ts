// What the Open Exchange Rates- and Fixer-compatible calls share: options, market, tag, query parameters.
import { Type } from '@sinclair/typebox';
import { formatUtcDate, MarketSchema, type Market } from '@afrofx/shared';
import type { RatesService } from '../../rates/rates.service';
import type { PaidApiService } from '../paid-api.service';
import type { RatesSnapshotSource } from '../../rates/rates-snapshot';
import { peerFault } from './peer-errors';
import type { FastifyRequest } from 'fastify';

export interface CompatOptions {
  service: PaidApiService;
  rates: RatesService;
  snapshot: RatesSnapshotSource;
}

/** The compatible calls answer the bank market unless market= names another. */
export const COMPAT_MARKET: Market = 'bank';

export const TAG = 'Compatibility';
export const compatSchema = { tags: [TAG], security: [{ apiKey: [] }] };

const code = (description: string) =>
  Type.String({ minLength: 3, maxLength: 3, pattern: '^[A-Za-z]{3}$', description, examples: ['USD'] });

/** The query parameters both peers' rates calls take, and market. */
export const peerQuery = (defaultBase: string) => ({
  base: Type.Optional(
    code(
      `The currency the rates are per one unit of (default ${defaultBase}): USD, EUR, GBP, CAD, NGN, KES, ZAR or GHS`,
    ),
  ),
  symbols: Type.Optional(
    Type.String({
      maxLength: 100,
      pattern: '^[A-Za-z]{3}(,[A-Za-z]{3})*$',
      description:
        'The currencies to answer, comma-separated ISO codes (spaces are ignored); default: every one published against base',
      examples: ['NGN,KES'],
    }),
  ),
  market: Type.Optional({ ...MarketSchema, description: 'The market (default bank)' }),
});

const keyParameter = (name: string, peer: string) =>
  Type.Optional(
    Type.String({
      maxLength: 100,
      description: `Your private key, where ${peer} takes it (or send Authorization: Bearer <private key>). Redacted from every log.`,
    }),
  );
export const appId = keyParameter('app_id', 'Open Exchange Rates');
export const accessKey = keyParameter('access_key', 'Fixer');

export const Rates = Type.Record(Type.String({ pattern: '^[A-Z]{3}$' }), Type.Number(), {
  description:
    'Units of each currency per one base. A rate we publish (units of NGN, KES, ZAR or GHS per USD, EUR, GBP or CAD) is our mid exact to 6 decimal places; its inverse is 1 / our mid to 12 significant digits.',
  examples: [{ NGN: 1505.375, KES: 129.25 }],
});

/** A day we can answer: today or earlier (UTC). */
export function pastDay(request: FastifyRequest, date: string, name = 'date') {
  if (date > formatUtcDate(new Date()))
    throw peerFault(request, 'invalid_date', `${name} must be today or an earlier UTC day.`);
  return date;
}

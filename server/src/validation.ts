// DESIGN §7: what the request validator adds to Fastify's Ajv. A JSON body keeps the types the client
// sent (a number or `true` in a text field is a 400, not stored as text); querystrings, params and headers are text
// by nature and keep coercion. Ajv coerces "Infinity" and "1e309" to Infinity and then skips minimum/maximum for a
// non-finite number, so coerced numbers are checked to be finite here. Strings with a lone surrogate have no UTF-8
// form and would be stored as U+FFFD, so they are refused in every part.
import { AjvCompiler, type Options as AjvOptions } from '@fastify/ajv-compiler';
import type { FastifySchema, FastifySchemaCompiler, FastifyServerOptions } from 'fastify';

interface ValidationError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message: string;
}
type Validator = ((data: unknown) => boolean) & { errors?: ValidationError[] | null };

const AJV_OPTIONS = { removeAdditional: false, useDefaults: true } as const;

// In a `u` pattern a surrogate pair is one code point, so only a lone surrogate matches.
const LONE_SURROGATE = /\p{Surrogate}/u;

/** The first string (at any depth) that is not well-formed Unicode, as a JSON pointer, or undefined. */
function loneSurrogateAt(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return LONE_SURROGATE.test(value) ? path : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, item] of Object.entries(value)) {
    const found = loneSurrogateAt(key, path) ?? loneSurrogateAt(item, `${path}/${key}`);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The first top-level property a coercing validator turned into a non-finite number. */
function nonFiniteAt(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, item] of Object.entries(value))
    if (typeof item === 'number' && !Number.isFinite(item)) return `/${key}`;
  return undefined;
}

function refusing(
  validate: Validator,
  check: (data: unknown) => string | undefined,
  keyword: string,
  message: string,
) {
  const guarded: Validator = (data) => {
    if (!validate(data)) {
      guarded.errors = validate.errors;
      return false;
    }
    const at = check(data);
    guarded.errors =
      at === undefined ? null : [{ instancePath: at, schemaPath: '#', keyword, params: {}, message }];
    return at === undefined;
  };
  return guarded;
}

const wellFormed = (validate: Validator) =>
  refusing(validate, loneSurrogateAt, 'wellFormed', 'must be well-formed Unicode text (no lone surrogate)');

/** Fastify's `schemaController.compilersFactory.buildValidator`: two Ajv pools, picked by the part of the request. */
export const buildValidator = (() => {
  const pool = AjvCompiler();
  return (externalSchemas: Parameters<typeof pool>[0], options: { customOptions?: AjvOptions }) => {
    const coercing = pool(externalSchemas, {
      ...options,
      customOptions: { ...options.customOptions, ...AJV_OPTIONS, coerceTypes: 'array' },
    });
    const strict = pool(externalSchemas, {
      ...options,
      customOptions: { ...options.customOptions, ...AJV_OPTIONS, coerceTypes: false },
    });
    const compile: FastifySchemaCompiler<FastifySchema> = (route) => {
      if (route.httpPart === 'body') return wellFormed(strict(route) as Validator);
      return wellFormed(
        refusing(coercing(route) as Validator, nonFiniteAt, 'finite', 'must be a finite number'),
      );
    };
    return compile;
  };
})() as unknown as NonNullable<
  NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildValidator']
>;

import { TypeRegistry, type TSchema } from '@sinclair/typebox';
import { Value, ValueErrorType, type ValueError } from '@sinclair/typebox/value';

/** A contract and the input it describes, for code that takes any contract (the web's forms). */
export type { Static, TSchema } from '@sinclair/typebox';

/** How a value fails its contract, in the words a form's message needs. */
export type ProblemKind = 'required' | 'invalid' | 'tooSmall' | 'tooLarge';

/** The bounds of the schema a value failed, so a message can name them without writing them again. */
export interface ProblemBounds {
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
}

export interface ContractProblem {
  /** The path of the failing value, by property names and array positions ('entitlements', 'markets', '0'). */
  path: string[];
  kind: ProblemKind;
  bounds: ProblemBounds;
}

const KIND_OF: Partial<Record<ValueErrorType, ProblemKind>> = {
  [ValueErrorType.ObjectRequiredProperty]: 'required',
  [ValueErrorType.ArrayMinItems]: 'tooSmall',
  [ValueErrorType.IntegerExclusiveMinimum]: 'tooSmall',
  [ValueErrorType.IntegerMinimum]: 'tooSmall',
  [ValueErrorType.NumberExclusiveMinimum]: 'tooSmall',
  [ValueErrorType.NumberMinimum]: 'tooSmall',
  [ValueErrorType.StringMinLength]: 'tooSmall',
  [ValueErrorType.ArrayMaxItems]: 'tooLarge',
  [ValueErrorType.IntegerExclusiveMaximum]: 'tooLarge',
  [ValueErrorType.IntegerMaximum]: 'tooLarge',
  [ValueErrorType.NumberExclusiveMaximum]: 'tooLarge',
  [ValueErrorType.NumberMaximum]: 'tooLarge',
  [ValueErrorType.StringMaxLength]: 'tooLarge',
};

/**
 * StringEnum is an Unsafe schema ({ type: 'string', enum }), which the server's validator reads as JSON Schema;
 * TypeBox's own checker knows it only once told how.
 */
function checkStringEnums(): void {
  if (TypeRegistry.Has('Unsafe')) return;
  TypeRegistry.Set('Unsafe', (schema: { enum?: unknown[] }, value) =>
    Array.isArray(schema.enum) ? schema.enum.includes(value) : true,
  );
}

const problemOf = (error: ValueError): ContractProblem => {
  const { minimum, maximum, minLength, maxLength, minItems, maxItems } = error.schema as ProblemBounds;
  return {
    path: error.path.split('/').slice(1),
    // An empty text is a field left blank, whichever rule it breaks first.
    kind: error.value === '' ? 'required' : (KIND_OF[error.type] ?? 'invalid'),
    bounds: { minimum, maximum, minLength, maxLength, minItems, maxItems },
  };
};

/**
 * What `value` breaks in the contract `schema`, checked in the browser as the server checks a request (TypeBox's
 * interpreter: the page's policy allows no compiled code). A property left undefined, or an empty text, counts as
 * missing. TypeBox does not read a plain string's `not` (Text's not-blank rule): callers send names trimmed, as the
 * services store them.
 */
export function contractProblems(schema: TSchema, value: unknown): ContractProblem[] {
  checkStringEnums();
  const problems = [...Value.Errors(schema, withoutUndefined(value))].map(problemOf);
  // A missing property is also reported as mistyped (undefined is not a number): missing says it all.
  const missing = new Set(problems.filter((p) => p.kind === 'required').map((p) => p.path.join('/')));
  return problems.filter((p) => p.kind === 'required' || !missing.has(p.path.join('/')));
}

/** Drops properties whose value is undefined, at any depth, so they read as missing rather than as mistyped. */
function withoutUndefined(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutUndefined);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .map(([key, item]) => [key, withoutUndefined(item)]),
  );
}

import {
  contractProblems,
  type ContractProblem,
  type ProblemBounds,
  type Static,
  type TSchema,
} from '@afrofx/shared';
import type { FormErrors } from './use-form-values';

/** A message, or one made from the bounds of the contract the value broke (so the bound is written once). */
type Message = string | ((bounds: ProblemBounds) => string);

/** What a field says when its value breaks the contract; a bound missed without its own message says `invalid`. */
export interface FieldMessages {
  required: string;
  invalid: Message;
  tooSmall?: Message;
  tooLarge?: Message;
}

export interface ContractForm<V, S extends TSchema> {
  /** The contract the form's input must meet: the one the server checks the request against. */
  schema: S;
  /**
   * The request the text fields make: numbers parsed (undefined for an empty field, NaN for one that is not a
   * number), lists split, names trimmed. The contract judges the result.
   */
  toInput(values: V): { [K in keyof Static<S>]?: unknown };
  /** Each field's messages. A contract path is shown under the last field it names ('entitlements/markets/0'). */
  messages: { [K in keyof V]: FieldMessages };
  /** Rules of the form beyond the contract's; a field the contract already refuses shows the contract's message. */
  refine?(values: V): FormErrors<V>;
}

/** A number as typed: undefined when the field is empty, NaN when its text is not of `pattern`. */
export function numberFrom(text: string, pattern: RegExp): number | undefined {
  const trimmed = text.trim();
  if (!trimmed) return undefined;
  return pattern.test(trimmed) ? Number(trimmed) : Number.NaN;
}

const messageOf = (messages: FieldMessages, { kind, bounds }: ContractProblem): string => {
  const message = kind === 'required' ? messages.required : (messages[kind] ?? messages.invalid);
  return typeof message === 'string' ? message : message(bounds);
};

/**
 * The validation `useFormValues` takes, from a TypeBox contract in shared/: the form writes how its text becomes the
 * request and what each field says, never the rules again. The first problem of a field is the one shown.
 */
export function contractValidation<V extends { [K in keyof V]: string }, S extends TSchema>(
  form: ContractForm<V, S>,
): (values: V) => { errors: FormErrors<V>; input?: Static<S> } {
  const fields = Object.keys(form.messages) as Array<keyof V & string>;
  return (values) => {
    const input = form.toInput(values);
    const errors: FormErrors<V> = {};
    for (const problem of contractProblems(form.schema, input)) {
      const field = [...problem.path].reverse().find((name) => fields.includes(name as keyof V & string)) as
        (keyof V & string) | undefined;
      if (field === undefined) throw new Error(`no field of the form shows /${problem.path.join('/')}`);
      errors[field] ??= messageOf(form.messages[field], problem);
    }
    for (const [field, message] of Object.entries(form.refine?.(values) ?? {}) as Array<[keyof V, string]>) {
      if (message) errors[field] ??= message;
    }
    if (Object.keys(errors).length > 0) return { errors };
    return { errors: {}, input: input as Static<S> };
  };
}

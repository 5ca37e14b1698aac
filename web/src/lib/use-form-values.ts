import { useState } from 'react';

export type FormErrors<V> = Partial<Record<keyof V, string>>;

/**
 * The state of a form of text fields checked on submit: `field(name)` wires an Input or Select, `check()` runs the
 * form's validation, shows its messages and returns the parsed input when there were none. A form that sends a
 * contract of shared/ validates with `contractValidation` (contract-form.ts), so its rules are the server's.
 */
export function useFormValues<V extends { [K in keyof V]: string }, I>(
  initial: V,
  validate: (values: V) => { errors: FormErrors<V>; input?: I },
) {
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<FormErrors<V>>({});

  const field = (name: keyof V & string) => ({
    name,
    value: values[name],
    error: errors[name],
    onChange: (event: { target: { value: string } }) =>
      setValues((current) => ({ ...current, [name]: event.target.value })),
  });

  const check = (): I | undefined => {
    const result = validate(values);
    setErrors(result.errors);
    return result.input;
  };

  return { values, field, check };
}

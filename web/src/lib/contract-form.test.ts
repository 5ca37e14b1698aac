import { Type } from '@sinclair/typebox';
import { StringEnum, Text } from '@afrofx/shared';
import { contractValidation, numberFrom } from './contract-form';

// A contract shaped like the ones in shared/: a bounded name, a string enum, a bounded integer, a nested list.
const Order = Type.Object(
  {
    name: Text({ maxLength: 10 }),
    colour: StringEnum(['red', 'blue'] as const),
    count: Type.Integer({ minimum: 1, maximum: 500 }),
    options: Type.Object({ tags: Type.Array(StringEnum(['a', 'b'] as const), { minItems: 1 }) }),
  },
  { additionalProperties: false },
);

interface OrderValues {
  name: string;
  colour: string;
  count: string;
  tags: string;
}

const validate = contractValidation({
  schema: Order,
  toInput: (values: OrderValues) => ({
    name: values.name.trim(),
    colour: values.colour || undefined,
    count: numberFrom(values.count, /^\d+$/),
    options: { tags: values.tags ? values.tags.split(',') : [] },
  }),
  messages: {
    name: {
      required: 'Name is required.',
      invalid: 'Name is odd.',
      tooLarge: ({ maxLength }) => `At most ${maxLength}.`,
    },
    colour: { required: 'Colour is required.', invalid: 'Pick a colour.' },
    count: {
      required: 'Count is required.',
      invalid: 'Count must be a whole number.',
      tooLarge: ({ maximum }) => `Count must be at most ${maximum}.`,
    },
    tags: { required: 'Tick a tag.', invalid: 'Unknown tag.', tooSmall: 'Tick a tag.' },
  },
  refine: (values) => ({ count: values.count === '13' ? 'Not 13.' : undefined }),
});

const valid: OrderValues = { name: ' Kofi ', colour: 'red', count: '12', tags: 'a,b' };

describe('contractValidation', () => {
  it('answers the input the contract takes, as the form made it', () => {
    expect(validate(valid)).toEqual({
      errors: {},
      input: { name: 'Kofi', colour: 'red', count: 12, options: { tags: ['a', 'b'] } },
    });
  });

  it('says which field is missing, mistyped or past a bound, naming the bound from the contract', () => {
    expect(validate({ name: '   ', colour: '', count: '501', tags: '' }).errors).toEqual({
      name: 'Name is required.',
      colour: 'Colour is required.',
      count: 'Count must be at most 500.',
      tags: 'Tick a tag.',
    });
    expect(validate({ ...valid, name: 'Kofi Annan Jr', count: '1.5' }).errors).toEqual({
      name: 'At most 10.',
      count: 'Count must be a whole number.',
    });
  });

  it('checks string enums, at any depth, and falls back to the invalid message for a bound without its own', () => {
    expect(validate({ ...valid, colour: 'green', tags: 'a,c', count: '0' }).errors).toEqual({
      colour: 'Pick a colour.',
      tags: 'Unknown tag.',
      count: 'Count must be a whole number.',
    });
  });

  it("adds the form's own rules where the contract has nothing to say", () => {
    expect(validate({ ...valid, count: '13' })).toEqual({ errors: { count: 'Not 13.' } });
    expect(validate({ ...valid, count: 'x' }).errors).toEqual({ count: 'Count must be a whole number.' });
  });
});

describe('numberFrom', () => {
  it('reads an empty field as missing and text off the pattern as not a number', () => {
    expect(numberFrom('  ', /^\d+$/)).toBeUndefined();
    expect(numberFrom(' 42 ', /^\d+$/)).toBe(42);
    expect(numberFrom('4e2', /^\d+$/)).toBeNaN();
  });
});
